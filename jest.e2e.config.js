// End-to-end: the built services as separate processes over HTTP and the real bus.
// The global set-up creates a fresh database and key prefix; each suite starts its own stack.
module.exports = {
  ...require('./jest.preset'),
  displayName: 'e2e',
  testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/libs/testing/src/int-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/int-global-teardown.ts',
  testTimeout: 120000,
  maxWorkers: 1,
};
