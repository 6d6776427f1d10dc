import Redis from 'ioredis';
import { dropDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  if (process.env.DATABASE_URL && !process.env.KEEP_TEST_DB) await dropDatabase(process.env.DATABASE_URL);
  const prefix = process.env.TEST_REDIS_PREFIX;
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
