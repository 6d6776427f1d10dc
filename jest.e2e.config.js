// End-to-end: the built services as separate processes over HTTP and the real bus.
// The global set-up creates a fresh database and key prefix and starts one S3Proxy for the run;
// each suite starts its own stack on them.
module.exports = {
  ...require('./jest.preset'),
  displayName: 'e2e',
  testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/libs/testing/src/e2e-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/e2e-global-teardown.ts',
  testTimeout: 120000,
  maxWorkers: 1,
};
