import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { createPgPool, inTransaction, sql, sqlClient } from './sql';

describe('plain pg client (real Postgres)', () => {
  let pool: Pool;
  const table = `sql_spec_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    pool = createPgPool(process.env.DATABASE_URL as string, 1); // one connection: every statement meets its prepared copy
    await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, amount bigint NOT NULL)`);
    await pool.query(`INSERT INTO ${table} VALUES (1, 9007199254740993)`);
  });
  afterAll(async () => {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await pool.end();
  });

  const byId = (id: number) => ({ text: `SELECT * FROM ${table} WHERE id = $1`, values: [id] });

  it('reads int8 as bigint, exactly (beyond 2^53)', async () => {
    const [row] = await sqlClient(pool).query<{ amount: bigint }>(byId(1));
    expect(row.amount).toBe(9007199254740993n);
  });

  it('keeps working when a migration changes the table under a prepared SELECT *', async () => {
    const db = sqlClient(pool);
    await db.query(byId(1)); // prepared on the connection
    await pool.query(`ALTER TABLE ${table} ADD COLUMN note text`);
    // Postgres refuses the prepared plan (result type changed); the client sends it again unnamed.
    const [row] = await db.query<{ id: number; note: string | null }>(byId(1));
    expect(row).toEqual({ id: 1, amount: 9007199254740993n, note: null });
  });

  it('commits a transaction that succeeds and rolls back one that throws', async () => {
    await inTransaction(pool, (tx) =>
      tx.execute({ text: `UPDATE ${table} SET amount = amount + 1 WHERE id = $1`, values: [1] }),
    );
    await expect(
      inTransaction(pool, async (tx) => {
        await tx.execute({ text: `UPDATE ${table} SET amount = 0 WHERE id = $1`, values: [1] });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const [row] = await sqlClient(pool).query<{ amount: bigint }>(byId(1));
    expect(row.amount).toBe(9007199254740994n);
  });

  it('aborts a statement that runs past the transaction timeout', async () => {
    await expect(inTransaction(pool, (tx) => tx.query(sql`SELECT pg_sleep(2)`), { timeoutMs: 100 })).rejects.toThrow(
      /statement timeout/,
    );
    // The connection went back to the pool usable.
    expect(await sqlClient(pool).query(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });
});
