import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createLogger, loadConfig } from '@pay/platform';
import { z } from 'zod';
import { createDatabaseClients } from './database-clients';
import { databaseEnvShape, databaseSection, withApplicationName } from './database.config';
import { PgListener } from './pg-listener';

describe('a service names its connections (application_name)', () => {
  const databaseUrl = process.env.DATABASE_URL as string;
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterAll(() => admin.end());

  const namesOf = async (pids: number[]): Promise<string[]> =>
    (
      await admin.query<{ name: string }>(
        'SELECT application_name AS name FROM pg_stat_activity WHERE pid = ANY($1::int[]) ORDER BY pid',
        [pids],
      )
    ).rows.map((r) => r.name);

  it("shows the service's name on both pools, and on its LISTEN connection with ':listen' after it, in pg_stat_activity", async () => {
    const name = `svc-${randomBytes(3).toString('hex')}`;
    const database = databaseSection(
      loadConfig(z.object(databaseEnvShape), {
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: '2',
        DATABASE_PREPARED_STATEMENTS: 'true',
      }),
      name,
    );
    const { prisma, pool } = createDatabaseClients(database, createLogger('spec', 'fatal'));
    const channel = `spec_${randomBytes(4).toString('hex')}`;
    const listener = new PgListener(database.url).listen({ channel, onNotify: () => undefined });
    try {
      const [{ pid: poolPid }] = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      const [{ pid: prismaPid }] = await prisma.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await listener.start();
      const listening = (
        await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE query = $1', [`LISTEN ${channel}`])
      ).rows.map((r) => r.pid);
      expect(listening).toHaveLength(1);
      expect(await namesOf([poolPid, prismaPid])).toEqual([name, name]);
      expect(await namesOf(listening)).toEqual([`${name}:listen`]);
    } finally {
      await listener.stop();
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('keeps a name the operator put in DATABASE_URL, and leaves the rest of the URL as it was', () => {
    expect(withApplicationName('postgresql://pay:s%40cret@db:5432/pay?sslmode=require', 'ledger')).toBe(
      'postgresql://pay:s%40cret@db:5432/pay?sslmode=require&application_name=ledger',
    );
    expect(withApplicationName('postgresql://pay@db/pay?application_name=ledger-eu-1', 'ledger')).toBe(
      'postgresql://pay@db/pay?application_name=ledger-eu-1',
    );
    // Not a URL it can parse: passed on as it is, for the connection to report.
    expect(withApplicationName('postgresql://pay@/pay', 'admin')).toBe('postgresql://pay@/pay');
  });
});
