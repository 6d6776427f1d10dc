import { randomUUID } from 'node:crypto';
import { createPgPool, createPrismaClient, type PrismaClient } from '@pay/persistence';
import type { Pool } from 'pg';
import { RailTimeoutError, UnknownBankError } from '../bank-rail';
import { SANDBOX_ACCOUNTS, SandboxBankRail, sandboxHolderName } from './sandbox-bank-rail';

describe('SandboxBankRail (real Postgres)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let now: Date;
  let rail: SandboxBankRail;
  const transfer = (accountNo: string, bankCode = 'BCA', key = randomUUID()) => ({
    idempotencyKey: key,
    bankCode,
    accountNo,
    accountName: 'X',
    amount: 1_000_000n,
  });

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
  });
  beforeEach(() => {
    now = new Date('2026-11-22T10:00:00Z');
    rail = new SandboxBankRail(pool, { latencyMs: 0, delayMs: 5000, clock: () => now });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  it('gives valid accounts a deterministic holder name and refuses unknown banks', async () => {
    const a = await rail.lookupAccount('BCA', '1234567890');
    expect(a).toEqual({ kind: 'found', accountName: sandboxHolderName('BCA', '1234567890') });
    expect(await rail.lookupAccount('BCA', '1234567890')).toEqual(a);
    expect((await rail.lookupAccount('OVO', '081234567890')).kind).toBe('found');
    await expect(rail.lookupAccount('XYZ', '1234567890')).rejects.toBeInstanceOf(UnknownBankError);
  });

  it('answers the magic numbers: not found, blocked', async () => {
    expect(await rail.lookupAccount('BNI', SANDBOX_ACCOUNTS.notFound.bank)).toEqual({ kind: 'not_found' });
    expect(await rail.lookupAccount('DANA', SANDBOX_ACCOUNTS.notFound.ewallet)).toEqual({ kind: 'not_found' });
    expect(await rail.lookupAccount('BRI', SANDBOX_ACCOUNTS.blocked.bank)).toEqual({ kind: 'blocked' });
    expect(await rail.lookupAccount('GOPAY', SANDBOX_ACCOUNTS.blocked.ewallet)).toEqual({ kind: 'blocked' });
    expect(await rail.lookupAccount('OVO', '1234567890')).toEqual({ kind: 'not_found' }); // not a phone number
  });

  it('completes a normal transfer once, however often it is submitted', async () => {
    const req = transfer('1234567890');
    const first = await rail.submitTransfer(req);
    const again = await rail.submitTransfer(req);
    expect(first).toMatchObject({ state: 'completed' });
    expect(again).toEqual(first);
    const rows = await prisma.sandboxRailTransfer.findMany({ where: { idempotencyKey: req.idempotencyKey } });
    expect(rows).toHaveLength(1);
    expect(rows[0].submissions).toBe(2);
    expect(await rail.transferStatus(req.idempotencyKey)).toEqual(first);
    expect(await rail.transferStatus(randomUUID())).toBeNull();
  });

  it('refuses to reuse an idempotency key for another transfer', async () => {
    const req = transfer('1234567890');
    await rail.submitTransfer(req);
    await expect(rail.submitTransfer({ ...req, amount: 2n })).rejects.toThrow(/different transfer/);
  });

  it('rejects at once for the rejected number', async () => {
    expect(await rail.submitTransfer(transfer(SANDBOX_ACCOUNTS.rejected.bank))).toMatchObject({
      state: 'failed',
      reason: 'Rejected by the beneficiary bank',
    });
  });

  it('times out on the first submission, then reports processing and finally completed', async () => {
    const req = transfer(SANDBOX_ACCOUNTS.timeoutThenSuccess.ewallet, 'OVO');
    await expect(rail.submitTransfer(req)).rejects.toBeInstanceOf(RailTimeoutError);
    expect(await rail.transferStatus(req.idempotencyKey)).toMatchObject({ state: 'processing', checkAfterMs: 5000 });
    expect(await rail.submitTransfer(req)).toMatchObject({ state: 'processing' });
    now = new Date(now.getTime() + 5000);
    expect(await rail.transferStatus(req.idempotencyKey)).toMatchObject({ state: 'completed' });
  });

  it('fails after the delay for the fail-after-delay number', async () => {
    const req = transfer(SANDBOX_ACCOUNTS.failAfterDelay.bank, 'MANDIRI');
    expect(await rail.submitTransfer(req)).toMatchObject({ state: 'processing' });
    now = new Date(now.getTime() + 6000);
    expect(await rail.transferStatus(req.idempotencyKey)).toMatchObject({
      state: 'failed',
      reason: 'Beneficiary bank did not confirm the transfer',
    });
  });

  it('submissions made at the same moment are stored together, each answered as if alone; the same key twice at once is still one transfer', async () => {
    const normal = [1, 2, 3, 4].map(() => transfer('1234567890'));
    const rejected = transfer(SANDBOX_ACCOUNTS.rejected.bank);
    const late = transfer(SANDBOX_ACCOUNTS.timeoutThenSuccess.bank);
    const twice = transfer('1234567890');
    const results = await Promise.allSettled(
      [...normal, rejected, late, twice, twice].map((r) => rail.submitTransfer(r)),
    );
    expect(
      results.map((r) =>
        r.status === 'fulfilled' ? r.value.state : r.reason instanceof RailTimeoutError ? 'timeout' : 'error',
      ),
    ).toEqual(['completed', 'completed', 'completed', 'completed', 'failed', 'timeout', 'completed', 'completed']);
    const rows = await prisma.sandboxRailTransfer.findMany({
      where: { idempotencyKey: { in: [...normal, rejected, late, twice].map((r) => r.idempotencyKey) } },
    });
    expect(rows).toHaveLength(7);
    expect(Object.fromEntries(rows.map((r) => [r.idempotencyKey, r.submissions]))).toMatchObject({
      [twice.idempotencyKey]: 2,
      [normal[0].idempotencyKey]: 1,
    });
    // The two answers for the same key name the same transfer.
    const [a, b] = results.slice(6).map((r) => (r.status === 'fulfilled' ? r.value : null));
    expect(a).toEqual(b);
    await expect(
      Promise.all([rail.submitTransfer(normal[0]), rail.submitTransfer({ ...normal[1], amount: 2n })]),
    ).rejects.toThrow(/different transfer/);
  });
});
