// The merchant journeys alone, for QA against any deployment:
//   E2E_BASE_URL=https://gateway.example E2E_ADMIN_TOKEN=... npx jest -c jest.journeys.config.js
// Without E2E_BASE_URL they start a local stack (needs the machine's Postgres and Redis).
module.exports = {
  ...require('./jest.e2e.config'),
  displayName: 'journeys',
  testMatch: ['<rootDir>/e2e/journeys/**/*.e2e-spec.ts'],
};
