import Redis from 'ioredis';
import { dropDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  // Only ever the database this run created (never a DATABASE_URL that came from outside).
  const created = process.env.TEST_DB_CREATED;
  if (created && created === process.env.DATABASE_URL && !process.env.KEEP_TEST_DB) await dropDatabase(created);
  const prefix = process.env.TEST_REDIS_PREFIX;
  if (process.env.E2E_BASE_URL) return;
  if (prefix && process.env.TEST_REDIS_URL) {
    const redis = new Redis(process.env.TEST_REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  }
}
