// Integration tests against the machine's real Postgres and Redis. The global set-up creates
// a fresh database (migrated) and a Redis key prefix for this run; the teardown drops them.
module.exports = {
  ...require('./jest.preset'),
  displayName: 'int',
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
  globalSetup: '<rootDir>/libs/testing/src/int-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/int-global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
