import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerCommand } from '@pay/contracts';
import { accountKind } from '@pay/domain';
import { foldAccountDeltas, type LedgerService } from '@pay/ledger-core';
import { createPgPool, createPrismaClient, type PrismaClient, sqlClient, sql, verifyLedger } from '@pay/persistence';
import {
  createDisbursement,
  createMerchant,
  createTestDatabase,
  directPayoutId,
  dropDatabase,
  fundMerchant,
  insertSuccessfulPayin,
  ledgerFor,
  MIGRATIONS_DIR,
  sandboxPaidPayin,
} from '@pay/testing';
import type { Pool } from 'pg';

/**
 * The platform's books (issue 43, decision 0049), in a database of its own: the checks here are
 * of every account at once (the trial balance), and some plant breaks no other suite should see.
 */
describe('the books: balanced postings for every ledger event (real Postgres)', () => {
  let url: string;
  let prisma: PrismaClient;
  let pool: Pool;
  let ledger: LedgerService;

  beforeAll(async () => {
    url = await createTestDatabase('pay_books');
    prisma = createPrismaClient(url, 4);
    pool = createPgPool(url, 4);
    ledger = ledgerFor(prisma);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(url);
  });

  const now = () => new Date().toISOString();
  const command = (c: object) => c as LedgerCommand;
  const postingsOf = async (entryId: string) =>
    Object.fromEntries(
      (
        await prisma.$queryRaw<{ account: string; amount: bigint }[]>`
          SELECT account, amount FROM postings WHERE entry_id = ${BigInt(entryId)} ORDER BY account`
      ).map((p) => [p.account, p.amount]),
    );
  const balances = async () =>
    Object.fromEntries(
      (
        await prisma.$queryRaw<
          { code: string; balance: bigint }[]
        >`SELECT code, balance FROM account_balances ORDER BY code`
      ).map((a) => [a.code, a.balance]),
    );
  const applied = (o: { outcome: string }) => {
    if (o.outcome !== 'applied') throw new Error(`expected applied, got ${JSON.stringify(o)}`);
    return o as { outcome: 'applied'; eventId: string };
  };

  /** Pay-ins (one sandbox), a settlement, two payouts, one of them failed and refunded. */
  async function history() {
    const { merchant } = await createMerchant(prisma);
    const m = merchant.id;
    const payin1 = await insertSuccessfulPayin(prisma, m, 1_000_000_00n, 7_000_00n);
    const payin2 = await insertSuccessfulPayin(prisma, m, 500_000_00n, 3_500_00n);
    const recorded = applied(
      await ledger.apply(
        command({
          type: 'payin.record',
          commandId: `r1:${payin1}`,
          merchantId: m,
          issuedAt: now(),
          payinId: payin1,
          amount: '100000000',
          fee: '700000',
        }),
      ),
    );
    await ledger.apply(
      command({
        type: 'payin.record',
        commandId: `r2:${payin2}`,
        merchantId: m,
        issuedAt: now(),
        payinId: payin2,
        amount: '50000000',
        fee: '350000',
      }),
    );
    await sandboxPaidPayin(prisma, m, 300_000_00n, 2_250_00n);
    const settled = applied(
      await ledger.apply(
        command({
          type: 'settlement.credit',
          commandId: `s:${payin1}`,
          merchantId: m,
          issuedAt: now(),
          settlementId: '8f7a5f0e-0000-4000-8000-' + payin1.slice(-12),
          payinIds: [payin1],
        }),
      ),
    );
    const paid = directPayoutId();
    const failed = directPayoutId();
    const debited = applied(
      await ledger.apply(
        command({
          type: 'payout.debit',
          commandId: `d:${paid}`,
          merchantId: m,
          issuedAt: now(),
          payoutId: paid,
          amount: '20000000',
          fee: '250000',
        }),
      ),
    );
    await ledger.apply(
      command({
        type: 'payout.debit',
        commandId: `d:${failed}`,
        merchantId: m,
        issuedAt: now(),
        payoutId: failed,
        amount: '10000000',
        fee: '250000',
      }),
    );
    const refunded = applied(
      await ledger.apply(
        command({
          type: 'payout.refund',
          commandId: `f:${failed}`,
          merchantId: m,
          issuedAt: now(),
          payoutId: failed,
          reason: 'bank rejected',
        }),
      ),
    );
    return { m, recorded, settled, debited, refunded };
  }

  it('books each event as balanced postings: the merchant side as before, the platform side with it', async () => {
    const { m, recorded, settled, debited, refunded } = await history();
    expect(await postingsOf(recorded.eventId)).toEqual({
      'acquirer:qris:receivable': 100_000_000n,
      [`merchant:${m}:pending`]: -99_300_000n,
      'revenue:fees:payin': -700_000n,
    });
    expect(await postingsOf(settled.eventId)).toEqual({
      [`merchant:${m}:available`]: -99_300_000n,
      [`merchant:${m}:pending`]: 99_300_000n,
    });
    expect(await postingsOf(debited.eventId)).toEqual({
      [`merchant:${m}:available`]: 20_250_000n,
      'payouts:payable': -20_000_000n,
      'revenue:fees:payout': -250_000n,
    });
    expect(await postingsOf(refunded.eventId)).toEqual({
      [`merchant:${m}:available`]: -10_250_000n,
      'payouts:payable': 10_000_000n,
      'revenue:fees:payout': 250_000n,
    });

    // The accounts read the same before and after folding, and the merchant's liabilities are its balance.
    const before = await balances();
    expect(await foldAccountDeltas(pool)).toBeGreaterThan(0);
    expect(await prisma.$queryRaw`SELECT count(*)::int AS n FROM account_deltas`).toEqual([{ n: 0 }]);
    expect(await balances()).toEqual(before);
    const balance = await prisma.balance.findUniqueOrThrow({ where: { merchantId: m } });
    expect(-before[`merchant:${m}:available`]).toBe(balance.available);
    expect(-before[`merchant:${m}:pending`]).toBe(balance.pending);
    expect(before['acquirer:sandbox:receivable']).toBe(300_000_00n);
    expect(before['revenue:fees:payout']).toBe(-250_000n);
    expect(Object.values(before).reduce((s, v) => s + v, 0n)).toBe(0n);

    const report = await verifyLedger(prisma);
    expect(report.breaches).toEqual([]);
    expect(report.booksChecked).toEqual({ entries: 7, postings: 20, accounts: 7 });
  });

  it('the migration books the history before it exactly as the ledger books it now, and the audit then finds nothing', async () => {
    await history();
    await foldAccountDeltas(pool);
    const snapshot = async () => ({
      postings: await prisma.$queryRaw`SELECT entry_id, account, amount FROM postings ORDER BY entry_id, account`,
      accounts: await prisma.$queryRaw`SELECT code, kind, merchant_id, balance FROM accounts ORDER BY code`,
      balances: await prisma.$queryRaw`SELECT * FROM balances ORDER BY merchant_id`,
    });
    // The books as they were before the migration (none), then the migration's backfill. Runs before the
    // cases below book platform entries and reversals, which no history before the migration holds.
    const before = await snapshot();
    const migration = readFileSync(join(MIGRATIONS_DIR, '20261203000000_books', 'migration.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('-- The history so far'));
    await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
      await tx.$executeRawUnsafe('UPDATE ledger_events SET posting_accounts = NULL, posting_amounts = NULL');
      await tx.$executeRawUnsafe('DELETE FROM platform_entries');
      await tx.$executeRawUnsafe('DELETE FROM accounts');
      await tx.$executeRawUnsafe('DELETE FROM account_deltas');
      await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = origin`);
      for (const statement of backfill.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim()))
        await tx.$executeRawUnsafe(statement);
      // Run twice, it books nothing twice (the bench's seeds run it after writing their events).
      for (const statement of backfill.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim()))
        await tx.$executeRawUnsafe(statement);
    });
    expect(await snapshot()).toEqual(before);
    expect((await verifyLedger(prisma)).breaches).toEqual([]);
  });
  it('the migration books the payouts the bank had already paid as confirmed (payable -> bank cash), each with its decision', async () => {
    const { merchant } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const { disbursement } = await createDisbursement(prisma, merchant.id, {
      amount: 150_000_00n,
      fee: 2_500_00n,
      outcome: 'success',
      applyConfirm: false,
    });
    const migration = readFileSync(join(MIGRATIONS_DIR, '20261203000000_books', 'migration.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('-- The history so far'));
    for (let run = 0; run < 2; run++)
      for (const statement of backfill.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim()))
        await prisma.$executeRawUnsafe(statement);
    const [confirmed] = await prisma.$queryRaw<{ id: bigint; memo: object }[]>`
      SELECT id, memo FROM journal_entries WHERE type = 'payout.confirmed' AND reference = ${disbursement.id}`;
    expect(confirmed.memo).toMatchObject({ rail: 'sandbox', sentUnbooked: true, bookedBy: 'migration' });
    expect(await postingsOf(String(confirmed.id))).toEqual({
      'bank:sandbox:cash': -150_000_00n,
      'payouts:payable': 150_000_00n,
    });
    // The payout service's own confirmation, arriving after the migration, is the migration's decision: booked once.
    const again = await ledger.apply(
      command({
        type: 'payout.confirm',
        commandId: `payout.confirm:${disbursement.id}`,
        merchantId: merchant.id,
        issuedAt: now(),
        payoutId: disbursement.id,
        rail: 'sandbox',
      }),
    );
    expect(again).toMatchObject({ outcome: 'applied', eventId: String(confirmed.id) });
    expect(
      await prisma.$queryRaw`SELECT count(*)::int AS n FROM journal_entries WHERE type = 'payout.confirmed' AND reference = ${disbursement.id}`,
    ).toEqual([{ n: 1 }]);
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
  });

  describe('a payout through the books: sent, confirmed, and returned by the bank after success', () => {
    /** A merchant with 1,000,000.00 available and one payout of 200,000.00 + 2,500.00 fee debited. */
    async function debitedPayout() {
      const { merchant } = await createMerchant(prisma);
      const m = merchant.id;
      const payin = await insertSuccessfulPayin(prisma, m, 1_000_000_00n, 0n);
      await ledger.apply(
        command({
          type: 'payin.record',
          commandId: `r:${payin}`,
          merchantId: m,
          issuedAt: now(),
          payinId: payin,
          amount: '100000000',
          fee: '0',
        }),
      );
      await ledger.apply(
        command({
          type: 'settlement.credit',
          commandId: `s:${payin}`,
          merchantId: m,
          issuedAt: now(),
          settlementId: '8f7a5f0e-0000-4000-8000-' + payin.slice(-12),
          payinIds: [payin],
        }),
      );
      const payoutId = directPayoutId();
      applied(
        await ledger.apply(
          command({
            type: 'payout.debit',
            commandId: `d:${payoutId}`,
            merchantId: m,
            issuedAt: now(),
            payoutId,
            amount: '20000000',
            fee: '250000',
          }),
        ),
      );
      const step = (type: string, extra: object = {}, commandId = `${type}:${payoutId}`) =>
        ledger.apply(command({ type, commandId, merchantId: m, issuedAt: now(), payoutId, ...extra }));
      const available = async () => (await prisma.balance.findUniqueOrThrow({ where: { merchantId: m } })).available;
      return { m, payoutId, step, available };
    }

    it('sent: payable -> the rail in transit; confirmed: in transit -> bank cash; reversed: the bank cash and the fee back to the merchant', async () => {
      const { m, step, available } = await debitedPayout();
      expect(await available()).toBe(79_750_000n);
      const sent = applied(await step('payout.send', { rail: 'BRI SNAP' }));
      expect(await postingsOf(sent.eventId)).toEqual({
        'payouts:payable': 20_000_000n,
        'rail:bri-snap:in_transit': -20_000_000n,
      });
      const confirmed = applied(await step('payout.confirm', { rail: 'BRI SNAP' }));
      expect(await postingsOf(confirmed.eventId)).toEqual({
        'bank:bri-snap:cash': -20_000_000n,
        'rail:bri-snap:in_transit': 20_000_000n,
      });
      expect(await available()).toBe(79_750_000n); // platform entries never move the merchant

      const reversed = applied(await step('payout.reverse', { reason: 'Account closed at the beneficiary bank' }));
      expect(await postingsOf(reversed.eventId)).toEqual({
        'bank:bri-snap:cash': 20_000_000n,
        [`merchant:${m}:available`]: -20_250_000n,
        'revenue:fees:payout': 250_000n,
      });
      expect(await available()).toBe(100_000_000n);
      expect(await prisma.ledgerEvent.findUniqueOrThrow({ where: { id: BigInt(reversed.eventId) } })).toMatchObject({
        type: 'payout.reversed',
        availableDelta: 20_250_000n,
        payload: { reversed: '20250000', reason: 'Account closed at the beneficiary bank' },
      });

      // Once each: the same command again is its first outcome; another command for the same fact is refused.
      expect(await step('payout.reverse', { reason: 'again' })).toEqual(reversed);
      expect(await step('payout.reverse', { reason: 'again' }, 'another-reverse')).toMatchObject({
        outcome: 'rejected',
        reason: 'DUPLICATE_REFERENCE',
      });
      expect(await step('payout.send', { rail: 'BRI SNAP' }, 'another-send')).toMatchObject({
        outcome: 'rejected',
        reason: 'DUPLICATE_REFERENCE',
      });
      expect(await step('payout.refund', { reason: 'late failure' })).toMatchObject({
        outcome: 'rejected',
        reason: 'PAYOUT_CLOSED',
      });
      expect(await available()).toBe(100_000_000n);
      await foldAccountDeltas(pool);
      expect((await verifyLedger(prisma)).breaches).toEqual([]);
    });

    it('a payout that fails after it was sent comes back out of the rail in transit; a confirmation without its sending books both', async () => {
      const failed = await debitedPayout();
      applied(await failed.step('payout.send', { rail: 'BRI SNAP' }));
      const refunded = applied(await failed.step('payout.refund', { reason: 'bank rejected' }));
      expect(await postingsOf(refunded.eventId)).toEqual({
        [`merchant:${failed.m}:available`]: -20_250_000n,
        'rail:bri-snap:in_transit': 20_000_000n,
        'revenue:fees:payout': 250_000n,
      });
      expect(await failed.step('payout.confirm', { rail: 'BRI SNAP' })).toMatchObject({
        outcome: 'rejected',
        reason: 'PAYOUT_CLOSED',
      });
      expect(await failed.step('payout.reverse', { reason: 'x' })).toMatchObject({
        outcome: 'rejected',
        reason: 'PAYOUT_CLOSED',
      });

      const unsent = await debitedPayout();
      const confirmed = applied(await unsent.step('payout.confirm', { rail: 'BRI SNAP' }));
      expect(await postingsOf(confirmed.eventId)).toEqual({
        'bank:bri-snap:cash': -20_000_000n,
        'payouts:payable': 20_000_000n,
      });
      expect(await unsent.step('payout.refund', { reason: 'x' })).toMatchObject({
        outcome: 'rejected',
        reason: 'PAYOUT_CLOSED',
      });
      expect(await unsent.step('payout.send', { rail: 'x' }, 'x')).toMatchObject({ outcome: 'applied' }); // late, still balanced
      await foldAccountDeltas(pool);
      expect((await verifyLedger(prisma)).breaches).toEqual([]);
    });

    it('refuses to book a payout that was never debited', async () => {
      const { merchant } = await createMerchant(prisma);
      const payoutId = directPayoutId();
      for (const type of ['payout.send', 'payout.confirm', 'payout.reverse'])
        expect(
          await ledger.apply(
            command({
              type,
              commandId: `${type}:${payoutId}`,
              merchantId: merchant.id,
              issuedAt: now(),
              payoutId,
              rail: 'BRI',
              reason: 'x',
            }),
          ),
        ).toMatchObject({ outcome: 'rejected', reason: 'PAYOUT_NOT_DEBITED' });
    });
  });

  describe("the platform's own entries: acquirer settlements, rail fees, adjustments", () => {
    const platform = (c: object) => ledger.apply(command({ merchantId: 0, issuedAt: now(), ...c }));

    it('books an acquirer settlement (receivable -> bank cash, its MDR an expense) and a rail fee, once each', async () => {
      const ref = `STL-${Date.now()}`;
      const settled = applied(
        await platform({
          type: 'acquirer.settle',
          commandId: `as:${ref}`,
          settlementRef: ref,
          acquirer: 'QRIS',
          rail: 'BRI SNAP',
          gross: '100000000',
          mdr: '700000',
          net: '99300000',
          settledOn: '2026-11-28',
        }),
      );
      expect(await postingsOf(settled.eventId)).toEqual({
        'acquirer:qris:receivable': -100_000_000n,
        'bank:bri-snap:cash': 99_300_000n,
        'expense:mdr:qris': 700_000n,
      });
      expect(await prisma.journalEntry.findUniqueOrThrow({ where: { id: BigInt(settled.eventId) } })).toMatchObject({
        type: 'acquirer.settled',
        reference: `qris:${ref}`,
        merchantId: null,
        memo: expect.objectContaining({ settledOn: '2026-11-28', gross: '100000000' }),
      });
      expect(
        await platform({
          type: 'acquirer.settle',
          commandId: `as2:${ref}`,
          settlementRef: ref,
          acquirer: 'QRIS',
          rail: 'BRI SNAP',
          gross: '1',
          mdr: '0',
          net: '1',
          settledOn: '2026-11-28',
        }),
      ).toMatchObject({ outcome: 'rejected', reason: 'DUPLICATE_REFERENCE' });
      expect(
        await platform({
          type: 'acquirer.settle',
          commandId: `as3:${ref}`,
          settlementRef: `${ref}-b`,
          acquirer: 'QRIS',
          rail: 'BRI SNAP',
          gross: '100',
          mdr: '1',
          net: '98',
          settledOn: '2026-11-28',
        }),
      ).toMatchObject({
        outcome: 'rejected',
        reason: 'ENTRY_INVALID',
        detail: { problem: 'gross 100 is not mdr 1 + net 98' },
      });
      // A batch that nets refunds: the receivable is credited gross less them (their refund entries took them out).
      const netted = applied(
        await platform({
          type: 'acquirer.settle',
          commandId: `as4:${ref}`,
          settlementRef: `${ref}-r`,
          acquirer: 'QRIS',
          rail: 'BRI SNAP',
          gross: '100000000',
          mdr: '700000',
          refunds: '25000000',
          net: '74300000',
          settledOn: '2026-11-28',
        }),
      );
      expect(await postingsOf(netted.eventId)).toEqual({
        'acquirer:qris:receivable': -75_000_000n,
        'bank:bri-snap:cash': 74_300_000n,
        'expense:mdr:qris': 700_000n,
      });
      expect(
        await platform({
          type: 'acquirer.settle',
          commandId: `as5:${ref}`,
          settlementRef: `${ref}-r2`,
          acquirer: 'QRIS',
          rail: 'BRI SNAP',
          gross: '100',
          mdr: '1',
          refunds: '10',
          net: '99',
          settledOn: '2026-11-28',
        }),
      ).toMatchObject({ outcome: 'rejected', detail: { problem: 'gross 100 is not mdr 1 + net 99 + refunds 10' } });

      const fee = applied(
        await platform({
          type: 'rail.fee',
          commandId: `rf:${ref}`,
          feeRef: ref,
          rail: 'BRI SNAP',
          amount: '250000',
          description: 'BI-FAST fees, 2026-11-28',
        }),
      );
      expect(await postingsOf(fee.eventId)).toEqual({
        'bank:bri-snap:cash': -250_000n,
        'expense:rail_fees:bri-snap': 250_000n,
      });
      await foldAccountDeltas(pool);
      expect((await verifyLedger(prisma)).breaches).toEqual([]);
    });

    it("adjusts a merchant's available (its event, refused if it would overdraw) or only the platform's accounts (an entry); refuses what does not balance or reaches another merchant", async () => {
      const { merchant } = await createMerchant(prisma);
      const other = (await createMerchant(prisma)).merchant.id;
      const m = merchant.id;
      const adjust = (merchantId: number, postings: [string, string][], id = randomUUID()) =>
        ledger.apply(
          command({
            type: 'books.adjust',
            commandId: `adj:${id}`,
            merchantId,
            issuedAt: now(),
            adjustmentId: id,
            postings: postings.map(([account, amount]) => ({ account, amount })),
            reason: 'goodwill for ticket 42',
            requestedBy: 'ops:ana',
            approvedBy: 'ops:budi',
          }),
        );
      const credit = applied(
        await adjust(m, [
          ['expense:adjustments', '500000'],
          [`merchant:${m}:available`, '-500000'],
        ]),
      );
      expect(await prisma.ledgerEvent.findUniqueOrThrow({ where: { id: BigInt(credit.eventId) } })).toMatchObject({
        type: 'balance.adjusted',
        availableDelta: 500_000n,
        payload: expect.objectContaining({ reason: 'goodwill for ticket 42', approvedBy: 'ops:budi' }),
      });
      expect((await prisma.balance.findUniqueOrThrow({ where: { merchantId: m } })).available).toBe(500_000n);
      expect(
        await adjust(m, [
          [`merchant:${m}:available`, '500001'],
          ['expense:adjustments', '-500001'],
        ]),
      ).toMatchObject({
        outcome: 'rejected',
        reason: 'INSUFFICIENT_BALANCE',
      });
      expect(
        await adjust(m, [
          [`merchant:${other}:available`, '-1'],
          ['expense:adjustments', '1'],
        ]),
      ).toMatchObject({ outcome: 'rejected', reason: 'ENTRY_INVALID' });
      expect(
        await adjust(m, [
          [`merchant:${m}:pending`, '-1'],
          ['expense:adjustments', '1'],
        ]),
      ).toMatchObject({ outcome: 'rejected', reason: 'ENTRY_INVALID' });
      expect(
        await adjust(0, [
          ['suspense', '-1'],
          ['expense:adjustments', '2'],
        ]),
      ).toMatchObject({ outcome: 'rejected', reason: 'ENTRY_INVALID' });
      expect(
        await adjust(0, [
          ['suspense', '-1'],
          ['petty:cash', '1'],
        ]),
      ).toMatchObject({
        outcome: 'rejected',
        detail: { problem: 'petty:cash is not an account of the chart' },
      });
      const writeOff = applied(
        await adjust(0, [
          ['suspense', '-1500'],
          ['expense:adjustments', '1500'],
        ]),
      );
      expect(await postingsOf(writeOff.eventId)).toEqual({ 'expense:adjustments': 1500n, suspense: -1500n });
      await foldAccountDeltas(pool);
      expect((await verifyLedger(prisma)).breaches).toEqual([]);
    });
  });

  it("the database's chart is the code's", async () => {
    const codes = [
      'merchant:12:available',
      'merchant:12:pending',
      'merchant:0:pending',
      'acquirer:qris:receivable',
      'bank:bri-snap:cash',
      'bank:BRI:cash',
      'payouts:payable',
      'rail:bri-snap:in_transit',
      'revenue:fees:payin',
      'revenue:fees:payout',
      'revenue:fees:x',
      'expense:rail_fees:bri-snap',
      'expense:mdr:qris',
      'expense:adjustments',
      'suspense',
      'cash',
    ];
    const rows = await prisma.$queryRaw<{ code: string; kind: string | null }[]>`
      SELECT code, account_kind(code) AS kind FROM unnest(${codes}::text[]) AS code`;
    expect(rows).toEqual(codes.map((code) => ({ code, kind: accountKind(code) })));
  });

  it('refuses, in the database, an entry that does not balance, has no postings, repeats or zeroes a line or names an account outside the chart, and any rewrite', async () => {
    const db = sqlClient(pool);
    const entry = (id: number, accounts: string[], amounts: number[]) => sql`
      INSERT INTO platform_entries (id, command_id, type, reference, occurred_at, posting_accounts, posting_amounts)
      VALUES (${id}, ${'manual:' + id}, 'test', ${'x' + id}, now(), ${accounts}::text[], ${amounts}::bigint[])`;
    await expect(db.query(entry(900001, ['suspense', 'expense:adjustments'], [100, -99]))).rejects.toThrow(
      'journal entry 900001 does not balance: its postings sum to 1',
    );
    await expect(db.query(entry(900002, ['suspense', 'petty:cash'], [100, -100]))).rejects.toThrow(
      'posting to petty:cash, which is not an account of the chart',
    );
    await expect(db.query(entry(900003, [], []))).rejects.toThrow('journal entry 900003 has no postings');
    await expect(db.query(entry(900004, ['suspense', 'expense:adjustments'], [1]))).rejects.toThrow(
      'journal entry 900004 has no postings, or not one amount per account',
    );
    await expect(db.query(entry(900005, ['suspense', 'suspense'], [1, -1]))).rejects.toThrow(
      'journal entry 900005 does not balance',
    );
    await expect(db.query(entry(900006, ['suspense', 'expense:adjustments'], [0, 0]))).rejects.toThrow(
      'journal entry 900006 does not balance',
    );
    // A merchant event without its postings is refused like any entry.
    const { merchant } = await createMerchant(prisma);
    await expect(
      db.query(sql`
        INSERT INTO ledger_events (merchant_id, seq, command_id, type, reference, available_delta, pending_delta, available_after, pending_after, payload)
        VALUES (${merchant.id}, 1, ${'manual:' + merchant.id}, 'payout.debited', 'x', 0, 0, 0, 0, '{}')`),
    ).rejects.toThrow('has no postings');
    await db.query(entry(900007, ['suspense', 'expense:adjustments'], [100, -100]));
    await db.query(
      sql`INSERT INTO account_deltas (account, amount) VALUES ('suspense', 100), ('expense:adjustments', -100)`,
    );
    await expect(
      db.query(sql`UPDATE platform_entries SET posting_amounts = '{1,-1}' WHERE id = 900007`),
    ).rejects.toThrow('platform_entries is append-only: UPDATE is not allowed');
    await expect(db.query(sql`DELETE FROM platform_entries`)).rejects.toThrow(
      'platform_entries is append-only: DELETE is not allowed',
    );
    await expect(db.query(sql`UPDATE ledger_events SET posting_amounts = posting_amounts`)).rejects.toThrow(
      'append-only',
    );
    // The entry made it into the books (balanced), with no decision of the ledger: the audit says so.
    expect((await verifyLedger(prisma)).breaches).toMatchObject([{ check: 'books.entry_undecided', id: '900007' }]);
    await prisma.$executeRaw`
      INSERT INTO ledger_commands (command_id, merchant_id, type, outcome, event_id, result) VALUES ('manual:900007', 0, 'books.adjust', 'applied', NULL, '{}')`;
    expect((await verifyLedger(prisma)).breaches).toEqual([]);
  });

  it('an event the ledger refuses to book unbalanced never reaches the database', async () => {
    const { merchant } = await createMerchant(prisma);
    const payoutId = directPayoutId();
    // A payout debit that would book more than the merchant has is refused as before, and nothing is posted.
    const outcome = await ledger.apply(
      command({
        type: 'payout.debit',
        commandId: `d:${payoutId}`,
        merchantId: merchant.id,
        issuedAt: now(),
        payoutId,
        amount: '100',
        fee: '0',
      }),
    );
    expect(outcome).toMatchObject({ outcome: 'rejected', reason: 'INSUFFICIENT_BALANCE' });
    expect(
      await prisma.$queryRaw`SELECT count(*)::int AS n FROM journal_entries WHERE merchant_id = ${merchant.id}`,
    ).toEqual([{ n: 0 }]);
  });

  it('the audit names an unbalanced entry, an account that is not the fold of its postings, and a trial balance that is not zero', async () => {
    const { m, recorded } = await history();
    await foldAccountDeltas(pool);
    const suspense = (await balances()).suspense ?? 0n;
    // Behind the database's checks (replica mode skips triggers): one posting more on the merchant's pending, one delta lost.
    await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL session_replication_role = replica`;
      await tx.$executeRaw`
        UPDATE ledger_events SET posting_accounts = posting_accounts || 'suspense'::text, posting_amounts = posting_amounts || 1::bigint
         WHERE id = ${BigInt(recorded.eventId)}`;
    });
    await prisma.$executeRaw`UPDATE accounts SET balance = balance + 5 WHERE code = 'revenue:fees:payin'`;

    const report = await verifyLedger(prisma);
    expect(report.breaches).toEqual([
      {
        check: 'books.account_fold',
        table: 'accounts',
        id: 'revenue:fees:payin',
        merchantId: null,
        expected: expect.stringMatching(/^balance -\d+ \(debits minus credits of its postings\)$/),
        found: expect.stringMatching(/^balance -\d+$/),
      },
      {
        check: 'books.account_fold',
        table: 'accounts',
        id: 'suspense',
        merchantId: null,
        expected: `balance ${suspense + 1n} (debits minus credits of its postings)`,
        found: `balance ${suspense}`,
      },
      {
        check: 'books.trial_balance',
        table: 'accounts',
        id: 'all accounts',
        merchantId: null,
        expected: 'total 0 (debits = credits)',
        found: 'total 5',
      },
      {
        check: 'books.entry_unbalanced',
        table: 'journal_entries',
        id: recorded.eventId,
        merchantId: m,
        expected: 'postings summing to 0',
        found: 'postings summing to 1',
      },
    ]);
  });
});
