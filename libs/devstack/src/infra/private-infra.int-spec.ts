import Redis from 'ioredis';
import { Client } from 'pg';
import { PrivatePostgres } from './private-postgres';
import { PrivateRedis } from './private-redis';

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('private clusters for outage tests', () => {
  it('PrivatePostgres stops (refusing connections) and starts again with the same data', async () => {
    const pg = await PrivatePostgres.start();
    try {
      await query(pg.url(), 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
      await pg.stop();
      expect(pg.isRunning).toBe(false);
      await expect(query(pg.url(), 'SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await pg.start();
      expect(await query(pg.url(), 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
    } finally {
      await pg.destroy();
    }
  });

  it('PrivateRedis stops and starts on the same port: empty by default, kept when persistent', async () => {
    for (const persistent of [false, true]) {
      const server = await PrivateRedis.start({ persistent });
      const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
      redis.on('error', () => undefined);
      try {
        await redis.set('k', 'v');
        await server.stop();
        await expect(redis.get('k')).rejects.toThrow();
        await server.start();
        await new Promise((r) => setTimeout(r, 300)); // ioredis reconnects on its own
        expect(await redis.get('k')).toBe(persistent ? 'v' : null);
      } finally {
        redis.disconnect();
        await server.destroy();
      }
    }
  });

  it('PrivateRedis with everysec (as docker-compose) keeps what was written across a clean shutdown', async () => {
    const server = await PrivateRedis.start({ persistent: true, appendfsync: 'everysec' });
    const redis = new Redis(server.url, { maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    redis.on('error', () => undefined);
    try {
      await redis.xadd('s', '*', 'k', 'v');
      await server.stop('shutdown');
      await server.start();
      await new Promise((r) => setTimeout(r, 300));
      expect(await redis.xlen('s')).toBe(1);
    } finally {
      redis.disconnect();
      await server.destroy();
    }
  });
});
