import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SnapSimulator } from '@pay/devstack';
import type { Minor } from '@pay/domain';
import { createPgPool } from '@pay/persistence';
import { waitFor } from '@pay/testing';
import type { Pool } from 'pg';
import { createBankRail, railEnvShape, railSection, type SnapBankRail } from '@pay/bank-rail';
import { z } from 'zod';

/**
 * The bank statement (14) over SNAP against the simulator (its own process, checking every
 * signature): a day longer than a page arrives whole, every line once, one signed call per page;
 * a bank whose pages repeat, go backwards or never end is refused, nothing of it given.
 */
describe('SnapBankRail.statement: SNAP 14 paging against the simulator', () => {
  const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
  const refs: string[] = [];
  let [pool, sim, rail] = [null, null, null] as unknown as [Pool, SnapSimulator, SnapBankRail];

  beforeAll(async () => {
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
    sim = await SnapSimulator.start({ databaseUrl: process.env.DATABASE_URL as string });
    const env = { ...sim.env(), RAIL_PROVIDER: 'snap' };
    rail = createBankRail(railSection(z.object(railEnvShape).parse(env)), pool) as SnapBankRail;
    // Seven transfers paid out of the source account: seven debit lines of today's statement.
    for (let i = 1; i <= 7; i++) {
      const ref = randomUUID();
      const status = await rail.submitTransfer({
        idempotencyKey: ref,
        bankCode: 'BCA',
        accountNo: `12345670${String(i).padStart(2, '0')}`,
        accountName: 'BUDI SANTOSO',
        amount: BigInt(10_000_00 + i) as Minor,
      });
      expect(status.state).toBe('completed');
      refs.push(ref);
    }
  });

  afterAll(async () => {
    rail?.close();
    await sim?.stop();
    await pool?.end();
  });

  /** The simulator's own log: the statement calls it verified (signature and all) and answered 2001400. */
  const answeredStatements = () =>
    readFileSync(sim.logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"service":"14"') && l.includes('"responseCode":"2001400"')).length;
  const paging = (body: object) => sim.control('statement/paging', body);
  const ids = (body: Record<string, unknown>) =>
    (body.detailData as { transactionId: string }[]).map((l) => l.transactionId);

  it('a statement of three pages of at most 3 lines (the request asks): every line once, one verified call per page', async () => {
    const before = answeredStatements();
    const s = await rail.statement(today, { pageSize: 3 });
    if (s.kind !== 'statement') throw new Error(s.reason);
    expect(s.pages).toBe(3);
    expect(ids(s.body).sort()).toEqual([...refs].sort());
    // Newest first across the pages, as the bank gave them.
    expect(ids(s.body)).toEqual([...refs].reverse());
    expect(s.body).toMatchObject({ hasMore: 'N', totalDebitEntries: { numberOfEntries: '7' } });
    // The log is written as the answers leave: wait for the third line, then there are exactly three.
    await waitFor(async () => answeredStatements() - before >= 3, 5_000, "the simulator's log of the pages");
    expect(answeredStatements() - before).toBe(3);
  });

  it("the bank's own page size (2 lines): four pages, every line once", async () => {
    expect((await paging({ pageSize: 2, fault: null })).status).toBe(200);
    const s = await rail.statement(today);
    if (s.kind !== 'statement') throw new Error(s.reason);
    expect(s.pages).toBe(4);
    expect(ids(s.body)).toEqual([...refs].reverse());
  });

  it('a page that repeats the one before is refused, nothing given', async () => {
    await paging({ pageSize: 3, fault: 'repeat-page' });
    const s = await rail.statement(today);
    expect(s).toEqual({ kind: 'unavailable', reason: 'refused: page 2 repeats page 1 (the same 3 line(s))' });
  });

  it('a page whose cursor goes back the way the pages came is refused', async () => {
    await paging({ pageSize: 3, fault: 'backwards-page' });
    const s = await rail.statement(today);
    expect(s.kind).toBe('unavailable');
    expect((s as { reason: string }).reason).toMatch(
      /^refused: page 2 goes backwards: its last record is at .+, after page 1's/,
    );
  });

  it('more pages than the bound is refused, never cut short', async () => {
    await paging({ pageSize: 3, fault: null });
    const s = await rail.statement(today, { maxPages: 2 });
    expect(s).toEqual({ kind: 'unavailable', reason: 'refused: the bank still has more lines after 2 pages' });
  });

  it('a bank that does not answer: unavailable, saying why', async () => {
    await sim.kill();
    try {
      const s = await rail.statement(today);
      expect(s.kind).toBe('unavailable');
      expect((s as { reason: string }).reason).toMatch(/^not sent: |^unknown: /);
    } finally {
      await sim.restart();
    }
  });
});
