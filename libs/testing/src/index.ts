export { createMerchant, insertSuccessfulPayin, fundMerchant } from './fixtures';
export { createTestDatabase, dropDatabase, uniqueName, TEST_PG_SERVER, MIGRATIONS_DIR } from './test-database';
