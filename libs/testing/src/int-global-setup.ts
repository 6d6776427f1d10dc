import { createTestDatabase, uniqueName } from './test-database';

/** One database and one Redis key prefix per test run, so runs never see each other's data. */
export default async function globalSetup(): Promise<void> {
  // Journeys against a deployed stack (E2E_BASE_URL) use no local database.
  if (process.env.E2E_BASE_URL) return;
  process.env.DATABASE_URL = await createTestDatabase();
  process.env.TEST_DB_CREATED = process.env.DATABASE_URL;
  process.env.TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  process.env.TEST_REDIS_PREFIX = `${uniqueName('t')}:`;
}
