// End-to-end: the built services as separate processes over HTTP and the real bus.
// The global set-up creates a fresh database and key prefix and starts one S3Proxy for the run;
// each suite starts its own stack on them.
module.exports = {
  ...require('./jest.preset'),
  displayName: 'e2e',
  testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
  // e2e/compose runs against the compose stack only (jest.compose.config.js, tools/containers/compose-test.sh).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/e2e/compose/'],
  globalSetup: '<rootDir>/libs/devstack/src/e2e-global-setup.ts',
  globalTeardown: '<rootDir>/libs/devstack/src/e2e-global-teardown.ts',
  // Every answer of the merchant API is checked against docs/openapi.json (libs/testing/src/http/openapi-contract.ts).
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/http/openapi-contract.setup.ts'],
  testTimeout: 120000,
  maxWorkers: 1,
};
