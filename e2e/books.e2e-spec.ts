import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SANDBOX_ACCOUNTS } from '@pay/bank-rail';
import { type LedgerCommand, ledgerCommandId } from '@pay/contracts';
import { createPrismaClient, type PrismaClient, verifyLedger } from '@pay/persistence';
import { createMerchant, fundMerchant, publishLedgerCommands, repoRoot, waitFor } from '@pay/testing';
import { LocalStack, testBus, testS3 } from '@pay/devstack';

const ADMIN_TOKEN = 'e2e-books-admin-token-0123456789abcdef';

/**
 * The platform's books through the real processes, on the bus (Redis Streams; Kafka with
 * E2E_BUS_TRANSPORT=kafka): a day's mix of pay-ins, a settlement, payouts paid, failed and
 * returned by the bank after success, an acquirer's settlement, a bank fee and an adjustment.
 * Each payout's amount goes payable -> in transit -> bank cash (or back); the audit is clean and
 * the trial balance (the ops API's) balances.
 */
describe("the platform's books end to end (processes, real Postgres, the SNAP simulator as bank)", () => {
  const busKeyPrefix = `${process.env.TEST_REDIS_PREFIX}books:`;
  const { stack: stackBus, config: bus } = testBus(busKeyPrefix);
  let stack: LocalStack;
  let prisma: PrismaClient;

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix,
      bus: stackBus,
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}books`),
      env: { BUS_LEASE_TTL_MS: '2000', PAYOUT_POLL_INTERVAL_MS: '100', ADMIN_TOKEN },
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  const api = async (path: string, token: string, body?: object): Promise<any> => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { token, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json();
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  const ops = async (path: string, body?: object): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${stack.internalUrl}/ops/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };
  async function payout(token: string, bankCode: string, accountNo: string, amount: number, final: string) {
    const inq = (
      await api('disbursement/account-inquiry', token, {
        merchantTrxId: `PO-${randomUUID().slice(0, 12)}`,
        accountNo,
        bankCode,
        amount,
      })
    ).data;
    const accepted = await api('disbursement/transfer', token, {
      merchantTrxId: inq.merchantTrxId,
      platformTrxId: inq.platformTrxId,
      accountNo: inq.accountNo,
      accountName: inq.accountName,
      bankCode: inq.bankCode,
      amount: inq.amount,
      notifyUrl: 'http://127.0.0.1:9/callback',
    });
    expect(accepted.data.status).toBe('pending');
    await waitFor(
      async () =>
        (await api('disbursement/inquiry', token, { merchantTrxId: inq.merchantTrxId })).data?.status === final,
      30_000,
      `${inq.merchantTrxId} ${final}`,
    );
    return prisma.disbursement.findFirstOrThrow({ where: { merchantTrxId: inq.merchantTrxId } });
  }
  const postingsOf = async (type: string, reference: string) =>
    Object.fromEntries(
      (
        await prisma.$queryRaw<{ account: string; amount: bigint }[]>`
          SELECT p.account, p.amount FROM journal_entries e JOIN postings p ON p.entry_id = e.id
           WHERE e.type = ${type} AND e.reference = ${reference} ORDER BY p.account`
      ).map((p) => [p.account, p.amount]),
    );
  const decided = (commandIds: string[]) =>
    waitFor(
      async () =>
        (await prisma.ledgerCommand.count({ where: { commandId: { in: commandIds } } })) === commandIds.length,
      30_000,
      'ledger decisions',
    );

  it('pays out, fails, returns and settles through the books: every amount where it stands, the audit clean, the trial balance balanced', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const m = merchant.id;
    await fundMerchant(prisma, m, [1_000_000_00n]);

    const paid = await payout(token, 'BCA', '1234567890', 200_000, 'success');
    const failed = await payout(token, 'BCA', SANDBOX_ACCOUNTS.rejected.bank, 100_000, 'failed');
    await decided([ledgerCommandId.payoutConfirm(paid.id), ledgerCommandId.payoutRefund(failed.id)]);
    expect(await postingsOf('payout.sent', paid.id)).toEqual({
      'payouts:payable': 200_000_00n,
      'rail:snap:in_transit': -200_000_00n,
    });
    expect(await postingsOf('payout.confirmed', paid.id)).toEqual({
      'bank:snap:cash': -200_000_00n,
      'rail:snap:in_transit': 200_000_00n,
    });
    // Sent, then refused by the bank: the refund comes back out of the rail in transit.
    expect(await postingsOf('payout.refunded', failed.id)).toEqual({
      [`merchant:${m}:available`]: -(100_000_00n + failed.fee),
      'rail:snap:in_transit': 100_000_00n,
      'revenue:fees:payout': failed.fee,
    });

    // Days later the beneficiary's bank returns the paid one: an operator records it.
    const reversed = await ops(`disbursements/${paid.id}/reverse`, {
      reason: 'Account closed at the beneficiary bank',
    });
    expect(reversed.status).toBe(200);
    await decided([ledgerCommandId.payoutReverse(paid.id)]);
    expect(await postingsOf('payout.reversed', paid.id)).toEqual({
      'bank:snap:cash': 200_000_00n,
      [`merchant:${m}:available`]: -(200_000_00n + paid.fee),
      'revenue:fees:payout': paid.fee,
    });
    expect((await api('payin/balance', token)).data.balance.available).toBe(1_000_000);

    // The platform's own entries arrive on the bus like any ledger command (reconciliation and approvals send them).
    const ref = randomUUID().slice(0, 8);
    const adjustmentId = randomUUID();
    const issuedAt = new Date().toISOString();
    const platform: LedgerCommand[] = [
      {
        type: 'acquirer.settle',
        commandId: ledgerCommandId.acquirerSettle('qris', ref),
        merchantId: 0,
        issuedAt,
        settlementRef: ref,
        acquirer: 'qris',
        rail: 'snap',
        gross: '100000000',
        mdr: '700000',
        net: '99300000',
        settledOn: issuedAt.slice(0, 10),
      },
      {
        type: 'rail.fee',
        commandId: ledgerCommandId.railFee('snap', ref),
        merchantId: 0,
        issuedAt,
        feeRef: ref,
        rail: 'snap',
        amount: '500000',
        description: 'transfer fees',
      },
      {
        type: 'books.adjust',
        commandId: ledgerCommandId.booksAdjust(adjustmentId),
        merchantId: m,
        issuedAt,
        adjustmentId,
        postings: [
          { account: 'expense:adjustments', amount: '500000' },
          { account: `merchant:${m}:available`, amount: '-500000' },
        ],
        reason: 'goodwill',
        requestedBy: 'ops:a',
        approvedBy: 'ops:b',
      },
    ] as LedgerCommand[];
    await publishLedgerCommands(bus, platform);
    await decided(platform.map((c) => c.commandId));
    expect(await postingsOf('acquirer.settled', `qris:${ref}`)).toEqual({
      'acquirer:qris:receivable': -100_000_000n,
      'bank:snap:cash': 99_300_000n,
      'expense:mdr:qris': 700_000n,
    });
    expect((await api('payin/balance', token)).data.balance.available).toBe(1_005_000);

    expect((await verifyLedger(prisma, { merchantIds: [m] })).breaches).toEqual([]);
    // Every account of the platform together (other suites share this database: their facts in flight are not breaches).
    const all = await verifyLedger(prisma, { graceSeconds: 300 });
    expect(all.breaches.filter((b) => b.check.startsWith('books.'))).toEqual([]);
    const tb = await ops('ledger/trial-balance');
    expect(tb.body.data).toMatchObject({ balanced: true });
    expect(tb.body.data.lines).toContainEqual({
      account: `merchant:${m}:available`,
      kind: 'liability',
      merchantId: m,
      debit: 0,
      credit: 1_005_000,
    });
  });
});
