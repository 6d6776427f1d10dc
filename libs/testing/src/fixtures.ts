import { randomUUID } from 'node:crypto';
import { LedgerService } from '@pay/ledger-core';
import { ledgerCommandId, type LedgerOutcome, parseLedgerCommand, Topic } from '@pay/contracts';
import { Client, type Pool } from 'pg';
import {
  createPgPool,
  databaseUrlOf,
  type Disbursement,
  DisbursementRepository,
  PayinRepository,
  PayoutRepository,
  type ClaimedDisbursement,
  type PrismaClient,
} from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';

/** A merchant with a balance row and one token, named uniquely so suites can share a database. */
export async function createMerchant(
  prisma: PrismaClient,
  overrides: Partial<{ name: string; isActive: boolean }> = {},
) {
  const admin = new MerchantAdmin(prisma);
  const merchant = await admin.create({ name: overrides.name ?? `Toko ${randomUUID().slice(0, 8)}` });
  const { token, id: tokenId } = await admin.issueToken(merchant.id, 'test');
  if (overrides.isActive === false) await admin.setActive(merchant.id, false);
  return { merchant, token, tokenId, admin };
}

/** A successful pay-in row as the acquirer path would leave it, not yet recorded by the ledger. */
export async function insertSuccessfulPayin(
  prisma: PrismaClient,
  merchantId: number,
  amountMinor: bigint,
  feeMinor: bigint,
) {
  return insertPayin(prisma, merchantId, amountMinor, feeMinor);
}

export async function insertPayin(
  prisma: PrismaClient,
  merchantId: number,
  amountMinor: bigint,
  feeMinor: bigint,
  merchantTrxId?: string,
) {
  const id = randomUUID();
  await prisma.payin.create({
    data: {
      id,
      merchantId,
      merchantTrxId: merchantTrxId ?? `INV-${id.slice(0, 8)}`,
      platformTrxId: `QR${id.replace(/-/g, '').slice(0, 16).toUpperCase()}`,
      amount: amountMinor,
      fee: feeMinor,
      // A rate that yields exactly this fee (0 % + fixed), so the row agrees with its own fee columns as the audit checks.
      feePctMilli: 0,
      feeFixed: feeMinor,
      status: 'success',
      rrn: id.slice(0, 12),
      successAt: new Date(),
    },
  });
  return id;
}

/**
 * A payout reference that is not a disbursement (as a manual correction would use): for a debit
 * that only tests the ledger. A UUID would name a disbursement row, and the audit would report
 * the event as having none.
 */
export function directPayoutId(): string {
  return `manual-${randomUUID()}`;
}

const pools = new WeakMap<PrismaClient, Pool>();

/**
 * A plain pg pool on the same database as `prisma`. It lets the process exit when idle, so
 * tests need not close it.
 */
export function poolFor(prisma: PrismaClient): Pool {
  let pool = pools.get(prisma);
  if (!pool) {
    // Never ended: the global teardown drops the database WITH (FORCE) while its idle connections
    // are still open, and the FATAL they then get is expected, not worth a warn line.
    pool = createPgPool(databaseUrlOf(prisma), 4, { allowExitOnIdle: true, onError: () => undefined });
    pools.set(prisma, pool);
  }
  return pool;
}

const ledgers = new WeakMap<PrismaClient, LedgerService>();

/** The ledger on the same database as `prisma`, as the ledger service runs it (plain pg). */
export function ledgerFor(prisma: PrismaClient): LedgerService {
  let ledger = ledgers.get(prisma);
  if (!ledger) ledgers.set(prisma, (ledger = new LedgerService(poolFor(prisma))));
  return ledger;
}

/**
 * A disbursement through the real path: inquiry, transfer recorded as `funding` with its debit
 * command, the ledger's decision, then the payout's outcome (`failed` records the refund
 * command, which the ledger applies unless `applyRefund` is false, as if it were lost; `success`
 * its confirmation, which the ledger applies).
 * `funding` stops before the ledger decides; `debited` right after, due for the payout service.
 */
export async function createDisbursement(
  prisma: PrismaClient,
  merchantId: number,
  o: {
    amount: bigint;
    fee: bigint;
    outcome: 'funding' | 'debited' | 'pending' | 'success' | 'failed';
    applyRefund?: boolean;
    /** For `success`: false leaves the ledger's payout.confirm unapplied (a history from before the books) */
    applyConfirm?: boolean;
  },
): Promise<{ disbursement: Disbursement; debit: LedgerOutcome | null }> {
  const disbursements = new DisbursementRepository(poolFor(prisma));
  const id = randomUUID();
  const fields = {
    merchantId,
    merchantTrxId: `PO-${id.slice(0, 8)}`,
    bankCode: 'BCA',
    accountNo: '1234567890',
    accountName: 'Budi Santoso',
    amount: o.amount,
    fee: o.fee,
  };
  const recorded = await disbursements.recordInquiry({
    ...fields,
    platformTrxId: `DB${id.replace(/-/g, '').slice(0, 16).toUpperCase()}`,
    expiresAt: new Date(Date.now() + 600_000),
  });
  if (recorded.kind !== 'created') throw new Error('inquiry not recorded');
  const { inquiry } = recorded;
  const debit = {
    type: 'payout.debit' as const,
    commandId: ledgerCommandId.payoutDebit(id),
    merchantId,
    issuedAt: new Date().toISOString(),
    payoutId: id,
    amount: String(o.amount),
    fee: String(o.fee),
  };
  await disbursements.createFunding(
    { ...fields, id, platformTrxId: inquiry.platformTrxId, notifyUrl: 'http://127.0.0.1:9/callback' },
    debit,
  );
  if (o.outcome === 'funding') return { disbursement: (await disbursements.get(id)) as Disbursement, debit: null };
  const pool = poolFor(prisma);
  // Claimed as the payout service claims it (leased, submission recorded), but before the ledger's
  // debit makes it due: a payout service running beside the test (end-to-end) never takes it.
  if (o.outcome !== 'debited')
    await pool.query(
      `UPDATE disbursements SET lease_until = now() + interval '30 seconds', submitted_at = now(), submit_attempts = 1 WHERE id = $1`,
      [id],
    );
  const decided = await ledgerFor(prisma).apply(debit);
  if (o.outcome === 'debited') return { disbursement: (await disbursements.get(id)) as Disbursement, debit: decided };
  const payouts = new PayoutRepository(pool);
  const {
    rows: [merchant],
  } = await pool.query<{ name: string }>('SELECT name FROM merchants WHERE id = $1', [merchantId]);
  const pending: ClaimedDisbursement = {
    ...((await disbursements.get(id)) as Disbursement),
    priorSubmittedAt: null,
    merchantName: merchant.name,
    merchantSandboxReceived: 0n,
    rail: 'sandbox',
  };
  if (o.outcome === 'success') {
    await payouts.complete([
      { kind: 'success', disbursement: pending, railReference: `RAIL-${id.slice(0, 8)}`, at: new Date() },
    ]);
    // The confirmation the outbox carries to the ledger (the books: payable -> the rail's bank cash).
    if (o.applyConfirm !== false)
      await ledgerFor(prisma).apply({
        type: 'payout.confirm',
        commandId: ledgerCommandId.payoutConfirm(id),
        merchantId,
        issuedAt: new Date().toISOString(),
        payoutId: id,
        rail: 'sandbox',
      });
  }
  if (o.outcome === 'failed') {
    await payouts.complete([
      {
        kind: 'failed',
        disbursement: pending,
        railReference: null,
        reason: 'Rejected by the beneficiary bank',
        code: 'REJECTED_BY_BANK',
        at: new Date(),
      },
    ]);
    if (o.applyRefund !== false) {
      await ledgerFor(prisma).apply({
        type: 'payout.refund',
        commandId: ledgerCommandId.payoutRefund(id),
        merchantId,
        issuedAt: new Date().toISOString(),
        payoutId: id,
      });
    }
  }
  return { disbursement: (await disbursements.get(id)) as Disbursement, debit: decided };
}

/** Funds a merchant through the ledger's real path: successful pay-ins recorded, then settled. */
export async function fundMerchant(
  prisma: PrismaClient,
  merchantId: number,
  amountsMinor: bigint[],
): Promise<string[]> {
  const ledger = ledgerFor(prisma);
  const issuedAt = new Date().toISOString();
  const ids: string[] = [];
  for (const amount of amountsMinor) {
    const payinId = await insertSuccessfulPayin(prisma, merchantId, amount, 0n);
    await ledger.apply({
      type: 'payin.record',
      commandId: `payin:${payinId}`,
      merchantId,
      issuedAt,
      payinId,
      amount: String(amount),
      fee: '0',
    });
    ids.push(payinId);
  }
  await ledger.apply({
    type: 'settlement.credit',
    commandId: `settle:${ids[0]}`,
    merchantId,
    issuedAt,
    settlementId: randomUUID(),
    payinIds: ids,
  });
  return ids;
}

/**
 * A pay-in paid by the sandbox payer, as the gateway's sandbox pay leaves it (the notice applied
 * with the sandbox mark), then recorded by the ledger from the very command that path wrote.
 * The fee is a fixed one (0 % + `feeMinor`), so the row agrees with its rate as the audit checks.
 */
export async function sandboxPaidPayin(
  prisma: PrismaClient,
  merchantId: number,
  amountMinor: bigint,
  feeMinor = 0n,
): Promise<string> {
  const payins = new PayinRepository(prisma);
  const id = randomUUID();
  const platformTrxId = `QR${id.replace(/-/g, '').slice(0, 16).toUpperCase()}`;
  const payin = await payins.create({
    merchantId,
    merchantTrxId: `SBX-${id.slice(0, 8)}`,
    platformTrxId,
    amount: amountMinor,
    fee: feeMinor,
    feePctMilli: 0,
    feeFixed: feeMinor,
    nmid: 'ID1020000000001',
    qrisPayload: 'sandbox',
    expiresAt: new Date(Date.now() + 600_000),
  });
  const now = new Date();
  const notice = {
    acquirerReference: `SBX-${randomUUID()}`,
    platformTrxId,
    amount: amountMinor,
    status: 'success' as const,
    rrn: '123456789012',
    issuer: 'DANA',
    paidAt: now,
    failureReason: null,
    sandbox: true,
  };
  const applied = await payins.applyNotice(notice, JSON.stringify({ platformTrxId }), now, 300_000);
  if (applied.outcome !== 'accepted') throw new Error(`sandbox pay not accepted: ${applied.outcome}`);
  const written = await prisma.outbox.findFirstOrThrow({
    where: { topic: Topic.LedgerCommands, payload: { path: ['payinId'], equals: payin.id } },
  });
  const outcome = await ledgerFor(prisma).apply(parseLedgerCommand(written.payload));
  if (outcome.outcome !== 'applied') throw new Error(`sandbox pay not recorded: ${JSON.stringify(outcome)}`);
  return payin.id;
}

/** A successful acquirer notification for a pay-in (50000 Rupiah, paid now), with `over` replacing any field. */
export function paidNotification(platformTrxId: string, over: object = {}) {
  return {
    acquirerReference: `ACQ-${randomUUID()}`,
    platformTrxId,
    amount: 50000,
    status: 'success',
    rrn: '123456789012',
    issuer: 'OVO',
    paidAt: new Date().toISOString(),
    ...over,
  };
}

/**
 * Changes a merchant's or a token's row without its trigger (no NOTIFY), so a gateway's auth cache
 * keeps what it had: what a change looks like to a gateway that has not heard of it yet.
 */
export async function changeUnannounced(databaseUrl: string, text: string, values: unknown[]): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  // The awaited calls below reject on a failure; this keeps a socket error between them from exiting the test process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query(text, values);
  } finally {
    await client.end();
  }
}
