import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { RailTimeoutError, readSnapCredentials, SnapBankRail, type SnapRailConfig } from '@pay/bank-rail';
import { SnapSimulator } from '@pay/devstack';
import { createPgPool, createPrismaClient, PayoutRepository, type PrismaClient } from '@pay/persistence';
import { createLogger, sourceBalanceMetric } from '@pay/platform';
import { Registry } from 'prom-client';
import { createMerchant } from '@pay/testing';
import type { Pool } from 'pg';
import { PayoutProcessor } from './payout.processor';

/**
 * Payouts over SNAP against the SNAP provider simulator (its own process, checking every
 * signature): each magic account ends as the reference's codes say, and the simulator's own
 * record shows each disbursement executed at most once.
 */
describe('PayoutProcessor over SNAP (the simulator as the bank)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let sim: SnapSimulator;
  let rail: SnapBankRail;
  let processor: PayoutProcessor;
  let merchantId: number;
  let config: SnapRailConfig;
  const unknowns: string[] = [];

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    sim = await SnapSimulator.start({ databaseUrl: process.env.DATABASE_URL as string, delayMs: 400, hangMs: 1_500 });
    const env = sim.env();
    config = {
      baseUrl: sim.baseUrl,
      clientId: sim.clientId,
      partnerId: sim.clientId,
      signatureMode: 'symmetric' as const,
      channelId: sim.channelId,
      sourceAccountNo: sim.sourceAccountNo,
      sourceBankCode: sim.sourceBankCode,
      externalIdLength: 32,
      connectTimeoutMs: 1_000,
      timeoutMs: 500,
      statusPollMs: 100,
      notFoundWindowMs: 1_000,
      files: {
        clientSecret: env.SNAP_CLIENT_SECRET_FILE,
        privateKey: env.SNAP_PRIVATE_KEY_FILE,
        providerPublicKey: env.SNAP_PROVIDER_PUBLIC_KEY_FILE,
      },
    };
    rail = new SnapBankRail(pool, config, readSnapCredentials(config.files), false, {
      onUnknown: (ref, reason) => unknowns.push(`${ref}: ${reason}`),
    });
    processor = new PayoutProcessor(new PayoutRepository(pool), rail, createLogger('test', 'fatal'), {
      batchSize: 16,
      leaseMs: 30_000,
      timeoutRetryMs: 100,
    });
    ({ id: merchantId } = (await createMerchant(prisma)).merchant);
  });

  afterAll(async () => {
    rail?.close();
    await sim?.stop();
    await prisma?.$disconnect();
    await pool?.end();
  });

  /** A debited disbursement, as the gateway and the ledger leave it: pending and due now. */
  async function pendingDisbursement(bankCode: string, accountNo: string): Promise<string> {
    const id = randomUUID();
    const platformTrxId = `DSB${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    await prisma.$executeRaw`
      INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
      VALUES (${platformTrxId}, ${merchantId}, ${`INV-${id.slice(0, 8)}`}, ${bankCode}, ${accountNo}, 'BUDI SANTOSO', 10000000, 250000, now() + interval '1 hour')`;
    await prisma.$executeRaw`
      INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, next_check_at, debited_at, log_id)
      VALUES (${id}::uuid, ${merchantId}, ${`INV-${id.slice(0, 8)}`}, ${platformTrxId}, ${bankCode}, ${accountNo}, 'BUDI SANTOSO', 10000000, 250000, 'https://merchant.example/cb', 'pending', now(), now(), ${id})`;
    return id;
  }

  /** Rounds of the payout loop, as its poller runs them, until the disbursement is final. */
  async function settle(id: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    let rounds = 0;
    while (Date.now() < deadline) {
      await processor.processDue([id]);
      rounds++;
      const d = await prisma.disbursement.findUniqueOrThrow({ where: { id } });
      if (d.status !== 'pending') return { ...d, rounds };
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`disbursement ${id} still pending after ${timeoutMs} ms`);
  }

  const executionsOf = async (id: string) => (await sim.executions()).filter((e) => e.partnerReferenceNo === id);

  it.each([
    ['BRI', '1234567890', 'success', 1, null, null],
    ['BCA', '1234567890', 'success', 1, null, null],
    ['DANA', '081234567890', 'success', 1, null, null],
    ['BRI', '0000000404', 'failed', 0, 'Beneficiary account not found (4041811)', 'ACCOUNT_NOT_FOUND'],
    ['BRI', '0000000403', 'failed', 0, 'Beneficiary account is inactive or blocked (4031818)', 'ACCOUNT_INACTIVE'],
    ['BRI', '0000000422', 'failed', 0, 'Rejected by the beneficiary bank (do not honor) (4031805)', 'REJECTED_BY_BANK'],
    [
      'OVO',
      '0800000414',
      'failed',
      0,
      'Insufficient funds in the source account (4031814)',
      'SOURCE_INSUFFICIENT_FUNDS',
    ],
    ['BRI', '0000000408', 'success', 1, null, null],
    ['BRI', '0000000502', 'success', 1, null, null],
    ['GOPAY', '0800000504', 'success', 1, null, null],
    ['BRI', '0000000202', 'success', 1, null, null],
    ['BRI', '0000000500', 'failed', 1, 'The bank reports the transfer failed: Failed (06)', 'BANK_FAILED'],
    ['BRI', '0000000429', 'success', 1, null, null],
    ['BCA', '0000000407', 'success', 1, null, null],
  ])('%s %s ends %s, executed %s time(s)', async (bankCode, accountNo, status, executions, reason, code) => {
    const id = await pendingDisbursement(bankCode, accountNo);
    const d = await settle(id);
    expect(d.status).toBe(status);
    expect(d.failureReason ?? null).toBe(reason);
    expect(d.failureCode ?? null).toBe(code);
    const record = await executionsOf(id);
    expect(record.reduce((n, e) => n + e.executions, 0)).toBe(executions);
    if (status === 'success') expect(d.railReference).toMatch(/^TRF/);
    // Every attempt was stored before it left, under this disbursement, each with its own X-EXTERNAL-ID.
    const attempts = await prisma.railAttempt.findMany({ where: { partnerReferenceNo: id } });
    expect(attempts.length).toBeGreaterThan(0);
    expect(new Set(attempts.map((a) => a.externalId)).size).toBe(attempts.length);
  });

  it("the source account's balance (11): what the bank says, lower by a transfer it executed; a metric a scrape never waits for", async () => {
    const before = await rail.sourceBalance();
    expect(typeof before).toBe('bigint');
    const id = await pendingDisbursement('BRI', '1234567890');
    expect((await settle(id)).status).toBe('success');
    expect(await rail.sourceBalance()).toBe((before as bigint) - 10_000_000n);

    const registry = new Registry();
    sourceBalanceMetric(registry, rail, { logger: createLogger('test', 'fatal'), provider: 'snap', refreshMs: 0 });
    const read = async () => {
      await registry.getSingleMetricAsString('rail_source_balance_idr');
      return (await registry.getSingleMetric('rail_source_balance_idr')?.get())?.values[0];
    };
    // Absent until the bank answered: a scrape only asks, it does not wait.
    expect(await read()).toBeUndefined();
    const deadline = Date.now() + 5_000;
    while ((await read()) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await read()).toMatchObject({
      labels: { provider: 'snap' },
      value: Number((before as bigint) - 10_000_000n) / 100,
    });
  });

  it('the answer that never came is UNKNOWN: status inquiry, not a failure, and never a second transfer', async () => {
    const id = await pendingDisbursement('BRI', '0000000408');
    const payouts = new PayoutRepository(pool);
    const before = (await payouts.unknownSummary()).count;
    await processor.processDue([id]);
    expect((await prisma.disbursement.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    expect((await payouts.unknownSummary()).count).toBe(before + 1);
    const d = await settle(id);
    expect((await payouts.unknownSummary()).count).toBe(before);
    expect(d.status).toBe('success');
    expect(unknowns.some((u) => u.startsWith(`${id}: timeout`))).toBe(true);
    const attempts = await prisma.railAttempt.findMany({ where: { partnerReferenceNo: id }, orderBy: { id: 'asc' } });
    expect(attempts.map((a) => [a.service, a.outcome])).toEqual([
      ['18', 'unknown'],
      ['36', 'answer'],
    ]);
  });

  it('a bank that is down when the payout starts: nothing sent, sent once it is back', async () => {
    const id = await pendingDisbursement('BRI', '1234567890');
    await sim.kill();
    await processor.processDue([id]);
    expect((await prisma.disbursement.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    const refused = await prisma.railAttempt.findMany({ where: { partnerReferenceNo: id } });
    expect(refused.map((a) => [a.outcome, a.notExecuted])).toEqual([['not_sent', true]]);
    await sim.restart();
    const d = await settle(id);
    expect(d.status).toBe('success');
    expect((await executionsOf(id))[0].executions).toBe(1);
  });

  it('a repeated submission of a succeeded transfer (409xx01) resolves through status, executed once', async () => {
    const id = await pendingDisbursement('BRI', '1234567890');
    expect(
      await rail.submitTransfer({
        idempotencyKey: id,
        bankCode: 'BRI',
        accountNo: '1234567890',
        accountName: 'BUDI SANTOSO',
        amount: 10000000n,
      }),
    ).toMatchObject({ state: 'completed' });
    expect(
      await rail.submitTransfer({
        idempotencyKey: id,
        bankCode: 'BRI',
        accountNo: '1234567890',
        accountName: 'BUDI SANTOSO',
        amount: 10000000n,
      }),
    ).toMatchObject({ state: 'completed' });
    const codes = (
      await prisma.railAttempt.findMany({ where: { partnerReferenceNo: id }, orderBy: { id: 'asc' } })
    ).map((a) => a.responseCode);
    expect(codes).toEqual(['2001800', '4091801', '2003600']);
    expect((await executionsOf(id))[0].executions).toBe(1);
  });

  it('readiness names a key the bank refuses; a bank that is down is not a readiness problem', async () => {
    await expect(rail.ready()).resolves.toBeUndefined();
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const creds = readSnapCredentials(config.files);
    const wrongKey = new SnapBankRail(pool, config, { ...creds, privateKeyPem: other.toString() }, false);
    await expect(wrongKey.ready()).rejects.toThrow(/refused our token request: 4017300/);
    // A lookup the bank will not answer is "the bank is unavailable" to the merchant, never an error of ours.
    await expect(wrongKey.lookupAccount('BRI', '1234567890')).rejects.toBeInstanceOf(RailTimeoutError);
    wrongKey.close();
    const down = new SnapBankRail(pool, { ...config, baseUrl: 'http://127.0.0.1:1/snap' }, creds, false);
    await expect(down.ready()).resolves.toBeUndefined();
    down.close();
  });

  it('looks accounts up with 16, and with 15 at our own bank', async () => {
    expect(await rail.lookupAccount('BRI', '0000000404')).toEqual({ kind: 'not_found' });
    expect(await rail.lookupAccount('BRI', '0000000403')).toEqual({ kind: 'blocked' });
    expect(await rail.lookupAccount('BRI', '1234567890')).toEqual({ kind: 'found', accountName: expect.any(String) });
    expect(await rail.lookupAccount('BCA', '1234567890')).toEqual({ kind: 'found', accountName: expect.any(String) });
    await expect(rail.lookupAccount('NOPE', '1234567890')).rejects.toThrow(/unknown bank code/);
  });
});
