// The browser smoke against a deployed gateway (tools/containers/compose-test.sh sets E2E_BASE_URL,
// E2E_INTERNAL_URL and E2E_ADMIN_TOKEN): e2e/compose only. jest.e2e.config.js leaves e2e/compose out.
module.exports = {
  ...require('./jest.e2e.config'),
  displayName: 'compose',
  testMatch: ['<rootDir>/e2e/compose/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
