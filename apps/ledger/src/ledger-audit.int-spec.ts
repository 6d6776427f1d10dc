import { randomUUID } from 'node:crypto';
import { createPrismaClient, type Breach, type PrismaClient, verifyLedger } from '@pay/persistence';
import {
  createDisbursement,
  createMerchant,
  directPayoutId,
  fundMerchant,
  insertSuccessfulPayin,
  ledgerFor,
  sandboxPaidPayin,
} from '@pay/testing';

/**
 * The audit, fact by fact: a state built through the real ledger is clean, then exactly one
 * fact is broken with SQL and the audit names that row. ledger_events is append-only, so every
 * breach is made by adding a row that lacks its counterpart (or by changing a source row).
 * Each test has merchants of its own and audits only them: suites share the database.
 */
describe('ledger audit (verifyLedger, real Postgres)', () => {
  let prisma: PrismaClient;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await prisma.$disconnect();
  });

  const audit = (merchantIds: number[], graceSeconds = 0) => verifyLedger(prisma, { merchantIds, graceSeconds });
  const breachesOf = async (merchantId: number) => (await audit([merchantId])).breaches;
  const checksOf = (breaches: Breach[]) => breaches.map((b) => b.check).sort();

  /** A merchant with money: two pay-ins settled, one recorded and left pending. */
  async function fundedMerchant() {
    const { merchant } = await createMerchant(prisma);
    const settled = await fundMerchant(prisma, merchant.id, [1_000_000_00n, 500_000_00n]);
    const pendingPayin = await insertSuccessfulPayin(prisma, merchant.id, 200_000_00n, 1_550_00n);
    await ledgerFor(prisma).apply({
      type: 'payin.record',
      commandId: `payin.record:${pendingPayin}`,
      merchantId: merchant.id,
      issuedAt: new Date().toISOString(),
      payinId: pendingPayin,
      amount: '20000000',
      fee: '155000',
    });
    return { merchantId: merchant.id, settled, pendingPayin };
  }

  /**
   * An event appended as the ledger would write it (next seq, the balance moved by its deltas,
   * an applied decision), but by hand: so only its counterpart is missing.
   */
  async function appendEvent(
    merchantId: number,
    e: { type: string; reference: string; available: bigint; pending: bigint; decision?: boolean },
  ): Promise<string> {
    const commandId = `manual:${randomUUID()}`;
    // Booked as the ledger books it (its merchant's accounts move by its deltas; suspense is the
    // other side), so only the counterpart named is missing. One that moves the merchant by nothing
    // still has balanced postings (a sen between two platform accounts): the books stay whole.
    const moves = [
      [`merchant:${merchantId}:available`, -e.available],
      [`merchant:${merchantId}:pending`, -e.pending],
      ['suspense', e.available + e.pending],
    ].filter(([, amount]) => amount !== 0n) as [string, bigint][];
    const lines: [string, bigint][] = moves.length
      ? moves
      : [
          ['suspense', 1n],
          ['expense:adjustments', -1n],
        ];
    const id = await prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ id: bigint }[]>`
        WITH b AS (
          UPDATE balances SET available = available + ${e.available}, pending = pending + ${e.pending}, last_seq = last_seq + 1
           WHERE merchant_id = ${merchantId} RETURNING last_seq, available, pending)
        INSERT INTO ledger_events (merchant_id, seq, command_id, type, reference, available_delta, pending_delta, available_after, pending_after, payload,
                                   posting_accounts, posting_amounts)
        SELECT ${merchantId}, last_seq, ${commandId}, ${e.type}, ${e.reference}, ${e.available}, ${e.pending}, available, pending, '{}'::jsonb,
               ${lines.map(([a]) => a)}::text[], ${lines.map(([, v]) => v)}::bigint[] FROM b
        RETURNING id`;
      for (const [account, amount] of lines.filter(([a]) => !a.startsWith('merchant:')))
        await tx.$executeRaw`INSERT INTO account_deltas (account, amount) VALUES (${account}, ${amount})`;
      return row.id;
    });
    if (e.decision !== false) {
      await prisma.$executeRaw`
        INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, event_id, result)
        VALUES (${commandId}, ${merchantId}, 'manual', 'applied', ${id}, '{}'::jsonb)`;
    }
    return String(id);
  }

  describe('pay-ins: every successful pay-in has exactly its payin.recorded, and no other pay-in has one', () => {
    it('is clean after pay-ins recorded and settled through the ledger', async () => {
      const { merchantId } = await fundedMerchant();
      const report = await audit([merchantId]);
      expect(report).toMatchObject({ merchantsChecked: 1, eventsChecked: 4, breaches: [], inFlight: [] });
      expect(report.rowsChecked).toMatchObject({ payins: 3, settlements: 1, decisions: 4 });
    });

    it('names a successful pay-in whose payin.recorded was never booked (the dead-lettered command), in flight only within the grace period', async () => {
      const { merchantId } = await fundedMerchant();
      const payinId = await insertSuccessfulPayin(prisma, merchantId, 75_000_00n, 675_00n);

      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'payin.event_missing',
          table: 'payins',
          id: payinId,
          merchantId,
          expected: '1 payin.recorded event of pending +7432500',
          found: 'none',
        },
      ]);
      const young = await audit([merchantId], 600);
      expect(young.breaches).toEqual([]);
      expect(young.merchantsExamined).toBe(0); // a busy merchant is not examined row by row for its pay-ins in flight
      expect(young.inFlight).toMatchObject([{ check: 'payin.event_missing', id: payinId }]);
    });

    it('names an event whose amount is not the pay-in net', async () => {
      const { merchantId } = await fundedMerchant();
      const payinId = await insertSuccessfulPayin(prisma, merchantId, 10_000_00n, 100_00n);
      const eventId = await appendEvent(merchantId, {
        type: 'payin.recorded',
        reference: payinId,
        available: 0n,
        pending: 9_900_01n,
      });
      await prisma.$executeRaw`UPDATE payins SET ledger_event_id = ${BigInt(eventId)} WHERE id = ${payinId}::uuid`;

      const breaches = await breachesOf(merchantId);
      // The pending balance then exceeds the unsettled nets by the same sen.
      expect(checksOf(breaches)).toEqual(['balance.pending_payins', 'payin.event_amount']);
      expect(breaches).toContainEqual({
        check: 'payin.event_amount',
        table: 'ledger_events',
        id: eventId,
        merchantId,
        expected: `pending +990000, available 0 (pay-in ${payinId}: amount 1000000 - fee 10000)`,
        found: 'pending +990001, available 0',
      });
    });

    it('names a payin.recorded for a pay-in that is not successful, and one for a pay-in that does not exist', async () => {
      const { merchantId } = await fundedMerchant();
      const failedPayin = await insertSuccessfulPayin(prisma, merchantId, 10_000_00n, 0n);
      await prisma.$executeRaw`UPDATE payins SET status = 'failed', success_at = NULL WHERE id = ${failedPayin}::uuid`;
      const forFailed = await appendEvent(merchantId, {
        type: 'payin.recorded',
        reference: failedPayin,
        available: 0n,
        pending: 10_000_00n,
      });
      const ghost = randomUUID();
      const forGhost = await appendEvent(merchantId, {
        type: 'payin.recorded',
        reference: ghost,
        available: 0n,
        pending: 1n,
      });

      const breaches = await breachesOf(merchantId);
      expect(breaches).toContainEqual({
        check: 'payin.event_unexpected',
        table: 'ledger_events',
        id: forFailed,
        merchantId,
        expected: `no event: pay-in ${failedPayin} is failed`,
        found: 'payin.recorded of pending +1000000',
      });
      expect(breaches).toContainEqual({
        check: 'event.orphan',
        table: 'ledger_events',
        id: forGhost,
        merchantId,
        expected: `pay-in ${ghost}`,
        found: 'no such pay-in',
      });
      expect(checksOf(breaches)).toEqual(['balance.pending_payins', 'event.orphan', 'payin.event_unexpected']);
    });

    it("names an event booked to another merchant than the pay-in's", async () => {
      const owner = await fundedMerchant();
      const other = await fundedMerchant();
      const payinId = await insertSuccessfulPayin(prisma, owner.merchantId, 10_000_00n, 0n);
      const eventId = await appendEvent(other.merchantId, {
        type: 'payin.recorded',
        reference: payinId,
        available: 0n,
        pending: 10_000_00n,
      });

      const report = await audit([owner.merchantId, other.merchantId]);
      expect(report.breaches).toContainEqual({
        check: 'payin.event_merchant',
        table: 'ledger_events',
        id: eventId,
        merchantId: other.merchantId,
        expected: `merchant ${owner.merchantId} (the merchant of pay-in ${payinId})`,
        found: `merchant ${other.merchantId}`,
      });
      expect(report.breaches).toContainEqual(
        expect.objectContaining({ check: 'payin.event_missing', id: payinId, merchantId: owner.merchantId }),
      );
    });

    it('names a pay-in whose fee is not what its own rate gives (the recon CSV shows both)', async () => {
      const { merchantId, pendingPayin } = await fundedMerchant();
      await prisma.$executeRaw`UPDATE payins SET fee_pct_milli = 700 WHERE id = ${pendingPayin}::uuid`;
      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'payin.fee',
          table: 'payins',
          id: pendingPayin,
          merchantId,
          expected: 'fee 295000 (700/1000 % of 20000000 rounded half up, + 155000, at most the amount)',
          found: 'fee 155000',
        },
      ]);
    });
  });

  describe('settlements: one settlement.credited of exactly its pay-ins, and totals that agree', () => {
    it('names a settlement whose row disagrees with its pay-ins', async () => {
      const { merchantId } = await fundedMerchant();
      const [s] = await prisma.settlement.findMany({ where: { merchantId } });
      await prisma.$executeRaw`UPDATE settlements SET gross = gross + 1 WHERE id = ${s.id}::uuid`;
      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'settlement.totals',
          table: 'settlements',
          id: s.id,
          merchantId,
          expected: 'payin_count 2, gross 150000000, fees 0, amount 150000000 (its pay-ins)',
          found: 'payin_count 2, gross 150000001, fees 0, amount 150000000',
        },
      ]);
    });

    it('names a settlement without its event', async () => {
      const { merchantId } = await fundedMerchant();
      const id = randomUUID();
      await prisma.$executeRaw`INSERT INTO settlements (id, merchant_id, amount, payin_count, gross, fees) VALUES (${id}::uuid, ${merchantId}, 0, 0, 0, 0)`;
      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'settlement.event_missing',
          table: 'settlements',
          id,
          merchantId,
          expected: '1 settlement.credited event of available +0, pending -0',
          found: 'none',
        },
      ]);
    });

    it("names a settlement.credited whose amount is not the sum of its pay-ins' nets", async () => {
      const { merchantId, pendingPayin } = await fundedMerchant();
      const second = await insertSuccessfulPayin(prisma, merchantId, 5_000_00n, 0n);
      await ledgerFor(prisma).apply({
        type: 'payin.record',
        commandId: `payin.record:${second}`,
        merchantId,
        issuedAt: new Date().toISOString(),
        payinId: second,
        amount: '500000',
        fee: '0',
      });
      const id = randomUUID();
      await prisma.$executeRaw`INSERT INTO settlements (id, merchant_id, amount, payin_count, gross, fees) VALUES (${id}::uuid, ${merchantId}, 19845000, 1, 20000000, 155000)`;
      await prisma.$executeRaw`UPDATE payins SET settlement_id = ${id}::uuid WHERE id = ${pendingPayin}::uuid`;
      const eventId = await appendEvent(merchantId, {
        type: 'settlement.credited',
        reference: id,
        available: 19_845_001n,
        pending: -19_845_001n,
      });

      const breaches = await breachesOf(merchantId);
      expect(checksOf(breaches)).toEqual(['balance.pending_payins', 'settlement.event_amount']);
      expect(breaches).toContainEqual({
        check: 'settlement.event_amount',
        table: 'ledger_events',
        id: eventId,
        merchantId,
        expected: `available +19845000, pending -19845000 (the nets of the 1 pay-ins of settlement ${id})`,
        found: 'available 19845001, pending -19845001',
      });
    });
  });

  describe('disbursements: a debit of amount + fee for each accepted one, a refund of the same for each failed one, nothing else', () => {
    it('is clean for paid, failed and refunded, pending and refused transfers', async () => {
      const { merchantId } = await fundedMerchant();
      await createDisbursement(prisma, merchantId, { amount: 100_000_00n, fee: 2_500_00n, outcome: 'success' });
      await createDisbursement(prisma, merchantId, { amount: 100_000_00n, fee: 2_500_00n, outcome: 'failed' });
      await createDisbursement(prisma, merchantId, { amount: 100_000_00n, fee: 2_500_00n, outcome: 'pending' });
      const refused = await createDisbursement(prisma, merchantId, {
        amount: 9_000_000_00n,
        fee: 2_500_00n,
        outcome: 'pending',
      });
      expect(refused.disbursement.status).toBe('refused');
      const report = await audit([merchantId]);
      expect(report).toMatchObject({ breaches: [], inFlight: [], rowsChecked: { disbursements: 4 } });
    });

    it('names a failed disbursement whose refund was never booked, in flight only within the grace period', async () => {
      const { merchantId } = await fundedMerchant();
      const { disbursement: d } = await createDisbursement(prisma, merchantId, {
        amount: 100_000_00n,
        fee: 2_500_00n,
        outcome: 'failed',
        applyRefund: false,
      });
      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'payout.refund_missing',
          table: 'disbursements',
          id: d.id,
          merchantId,
          expected: '1 payout.refunded event of available +10250000 (disbursement failed)',
          found: 'none',
        },
      ]);
      expect((await audit([merchantId], 600)).inFlight).toMatchObject([{ check: 'payout.refund_missing', id: d.id }]);
    });

    it('names a refund of a disbursement that succeeded, and a debit of one that was refused', async () => {
      const { merchantId } = await fundedMerchant();
      const { disbursement: paid } = await createDisbursement(prisma, merchantId, {
        amount: 100_000_00n,
        fee: 2_500_00n,
        outcome: 'success',
      });
      const refundId = await appendEvent(merchantId, {
        type: 'payout.refunded',
        reference: paid.id,
        available: 10_250_000n,
        pending: 0n,
      });
      const { disbursement: refused } = await createDisbursement(prisma, merchantId, {
        amount: 9_000_000_00n,
        fee: 2_500_00n,
        outcome: 'pending',
      });
      const debitId = await appendEvent(merchantId, {
        type: 'payout.debited',
        reference: refused.id,
        available: -1_000_00n,
        pending: 0n,
      });

      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'payout.debit_unexpected',
          table: 'ledger_events',
          id: debitId,
          merchantId,
          expected: `no debit: disbursement ${refused.id} is refused`,
          found: 'payout.debited of available -100000',
        },
        {
          check: 'payout.refund_unexpected',
          table: 'ledger_events',
          id: refundId,
          merchantId,
          expected: `no refund: disbursement ${paid.id} is success`,
          found: 'payout.refunded of available 10250000',
        },
      ]);
    });

    it('names an accepted disbursement without its debit, and a debit of the wrong amount', async () => {
      const { merchantId } = await fundedMerchant();
      const { disbursement: undebited } = await createDisbursement(prisma, merchantId, {
        amount: 100_000_00n,
        fee: 2_500_00n,
        outcome: 'funding',
      });
      await prisma.$executeRaw`UPDATE disbursements SET status = 'pending', debited_at = now() WHERE id = ${undebited.id}::uuid`;
      const { disbursement: short } = await createDisbursement(prisma, merchantId, {
        amount: 100_000_00n,
        fee: 2_500_00n,
        outcome: 'funding',
      });
      const debitId = await appendEvent(merchantId, {
        type: 'payout.debited',
        reference: short.id,
        available: -10_000_000n,
        pending: 0n,
      });
      await prisma.$executeRaw`UPDATE disbursements SET status = 'pending', debited_at = now() WHERE id = ${short.id}::uuid`;

      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'payout.debit_amount',
          table: 'ledger_events',
          id: debitId,
          merchantId,
          expected: `available -10250000, pending 0 (disbursement ${short.id}: amount + fee)`,
          found: 'available -10000000, pending 0',
        },
        {
          check: 'payout.debit_missing',
          table: 'disbursements',
          id: undebited.id,
          merchantId,
          expected: '1 payout.debited event of available -10250000 (disbursement is pending)',
          found: 'none',
        },
      ]);
    });

    it('names a transfer the ledger never decided, in flight only within the grace period', async () => {
      const { merchantId } = await fundedMerchant();
      const { disbursement: d } = await createDisbursement(prisma, merchantId, {
        amount: 100_000_00n,
        fee: 2_500_00n,
        outcome: 'funding',
      });
      expect(await breachesOf(merchantId)).toMatchObject([
        { check: 'payout.undecided', table: 'disbursements', id: d.id, merchantId },
      ]);
      expect((await audit([merchantId], 600)).breaches).toEqual([]);
    });

    it('names a payout event for a disbursement that does not exist; a direct payout (not a UUID) needs only its refund to match its debit', async () => {
      const { merchantId } = await fundedMerchant();
      const manual = directPayoutId();
      await appendEvent(merchantId, { type: 'payout.debited', reference: manual, available: -5_000_00n, pending: 0n });
      await appendEvent(merchantId, { type: 'payout.refunded', reference: manual, available: 5_000_00n, pending: 0n });
      expect(await breachesOf(merchantId)).toEqual([]);

      const ghost = randomUUID();
      const ghostDebit = await appendEvent(merchantId, {
        type: 'payout.debited',
        reference: ghost,
        available: -1_00n,
        pending: 0n,
      });
      const strayRefund = await appendEvent(merchantId, {
        type: 'payout.refunded',
        reference: directPayoutId(),
        available: 1_00n,
        pending: 0n,
      });
      const breaches = await breachesOf(merchantId);
      expect(breaches).toContainEqual({
        check: 'event.orphan',
        table: 'ledger_events',
        id: ghostDebit,
        merchantId,
        expected: `disbursement ${ghost}`,
        found: 'no such disbursement',
      });
      expect(breaches).toContainEqual(
        expect.objectContaining({
          check: 'payout.refund_unexpected',
          table: 'ledger_events',
          id: strayRefund,
          merchantId,
        }),
      );
      expect(breaches).toHaveLength(2);
    });
  });

  describe('decisions: every event has its applied decision, every applied decision its event', () => {
    it('names an applied decision pointing at no event, an event without a decision, and an event of no known type', async () => {
      const { merchantId } = await fundedMerchant();
      const commandId = `manual:${randomUUID()}`;
      await prisma.$executeRaw`
        INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, event_id, result) VALUES (${commandId}, ${merchantId}, 'payout.debit', 'applied', 999999999, '{}'::jsonb)`;
      const manual = directPayoutId();
      const undecided = await appendEvent(merchantId, {
        type: 'payout.debited',
        reference: manual,
        available: -1_00n,
        pending: 0n,
        decision: false,
      });
      const unknown = await appendEvent(merchantId, {
        type: 'balance.fudged',
        reference: 'ticket-42',
        available: 0n,
        pending: 0n,
      });

      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'decision.event_missing',
          table: 'ledger_commands',
          id: commandId,
          merchantId,
          expected: `event 999999999 of merchant ${merchantId}`,
          found: 'no such event',
        },
        {
          check: 'event.undecided',
          table: 'ledger_events',
          id: undecided,
          merchantId,
          expected: expect.stringMatching(/^an applied decision of command manual:/),
          found: 'no decision',
        },
        {
          check: 'event.unknown_type',
          table: 'ledger_events',
          id: unknown,
          merchantId,
          expected:
            'payin.recorded, settlement.credited, payout.debited, payout.refunded, payout.reversed, balance.adjusted, payin.refunded or payin.refund_returned',
          found: 'type balance.fudged',
        },
      ]);
    });
  });

  describe("sandbox money: what each merchant received of it is the fold of the marked events, and each mark is its pay-in's", () => {
    /** A merchant with acquirer money (settled and pending) and one sandbox pay, recorded. */
    async function mixedMerchant() {
      const { merchantId } = await fundedMerchant();
      const sandboxPayin = await sandboxPaidPayin(prisma, merchantId, 300_000_00n, 2_250_00n);
      return { merchantId, sandboxPayin };
    }

    it('is clean, and the projection holds the sandbox pay-in net', async () => {
      const { merchantId } = await mixedMerchant();
      expect(await audit([merchantId])).toMatchObject({ breaches: [], inFlight: [], merchantsExamined: 0 });
      expect(await prisma.balance.findUniqueOrThrow({ where: { merchantId } })).toMatchObject({
        sandboxReceived: 297_750_00n,
      });
    });

    it('names a projection of sandbox money received that is not the fold of its events', async () => {
      const { merchantId } = await mixedMerchant();
      await prisma.$executeRaw`UPDATE balances SET sandbox_received = 0 WHERE merchant_id = ${merchantId}`;
      expect(await breachesOf(merchantId)).toEqual([
        {
          check: 'balance.sandbox_received',
          table: 'balances',
          id: String(merchantId),
          merchantId,
          expected: 'sandbox_received 29775000 (nets of the payin.recorded events marked sandbox)',
          found: 'sandbox_received 0',
        },
      ]);
    });

    it("names an event whose sandbox mark is not its pay-in's, either way", async () => {
      const { merchantId, sandboxPayin } = await mixedMerchant();
      const acquirerPayin = await prisma.payin.findFirstOrThrow({
        where: { merchantId, sandbox: false, status: 'success' },
        orderBy: { createdAt: 'asc' },
      });
      const sandboxRow = await prisma.payin.findUniqueOrThrow({ where: { id: sandboxPayin } });
      // The rows are changed, the append-only events stay: each pair now disagrees.
      await prisma.$executeRaw`UPDATE payins SET sandbox = NOT sandbox WHERE id IN (${sandboxPayin}::uuid, ${acquirerPayin.id}::uuid)`;
      const breaches = await breachesOf(merchantId);
      expect(breaches).toEqual(
        expect.arrayContaining([
          {
            check: 'payin.event_sandbox',
            table: 'ledger_events',
            id: String(sandboxRow.ledgerEventId),
            merchantId,
            expected: `not marked sandbox (pay-in ${sandboxPayin} was not paid by the sandbox payer)`,
            found: 'marked sandbox',
          },
          {
            check: 'payin.event_sandbox',
            table: 'ledger_events',
            id: String(acquirerPayin.ledgerEventId),
            merchantId,
            expected: `marked sandbox (pay-in ${acquirerPayin.id} was paid by the sandbox payer)`,
            found: 'not marked sandbox',
          },
        ]),
      );
      expect(checksOf(breaches)).toEqual(['payin.event_sandbox', 'payin.event_sandbox']);
    });
  });
});
