import { Prisma, type PrismaClient } from '../../client/prisma';
import { type Breach, type BreachRow, toBreach, type VerifyReport } from './breach';
import { booksFacts } from './books.query';
import { eventBreaches } from './event-facts.query';
import { merchantDigests } from './merchant-digest.query';
import { payinBreaches, payinsInFlight } from './payin-facts.query';
import { payoutBreaches } from './payout-facts.query';
import { refundBreaches } from './refund-facts.query';
import { settlementBreaches } from './settlement-facts.query';
import { suspenseFindings } from './suspense.query';

export interface VerifyOptions {
  /** Audit only these merchants (default: all) */
  merchantIds?: number[];
  /**
   * A successful pay-in without its event, a failed disbursement without its refund or one
   * still `funding` is reported in `inFlight`, not as a breach, while it changed less than
   * this many seconds ago: its ledger command may still be on the bus. Default 0 (strict).
   */
  graceSeconds?: number;
}

/**
 * The ledger audit: every balance is the fold of its events, and every event and every
 * money-moving row (pay-in, settlement, disbursement, ledger decision) has its exact
 * counterpart, and the platform's books balance and agree with the balances (books.query.ts). First one statement compares per-merchant digests of each side; then only
 * the merchants whose digests differ are examined row by row, naming each breach. All of it
 * reads one snapshot (a REPEATABLE READ, read-only transaction), so a live system is seen
 * at one instant.
 */
export async function verifyLedger(prisma: PrismaClient, options: VerifyOptions = {}): Promise<VerifyReport> {
  const graceSeconds = options.graceSeconds ?? 0;
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe('SET TRANSACTION READ ONLY');
      // The digests are a handful of aggregates: JIT compilation would cost more than it saves.
      await tx.$queryRaw`SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`;
      const digest = await merchantDigests(tx, options.merchantIds ?? null, graceSeconds);
      const { payins, settlements, payouts, events, refunds } = digest.suspects;
      const rows: BreachRow[] = [
        ...(payins.length ? await payinBreaches(tx, payins, graceSeconds) : []),
        ...(settlements.length ? await settlementBreaches(tx, settlements) : []),
        ...(payouts.length ? await payoutBreaches(tx, payouts, graceSeconds) : []),
        ...(events.length ? await eventBreaches(tx, events) : []),
        ...(refunds.length ? await refundBreaches(tx, refunds, graceSeconds) : []),
        ...(digest.payinsInFlight.length ? await payinsInFlight(tx, digest.payinsInFlight, graceSeconds) : []),
      ];
      const books = await booksFacts(tx, options.merchantIds ?? null, graceSeconds);
      // The platform's suspense is everyone's: a scoped audit does not read it.
      const warnings = options.merchantIds ? [] : await suspenseFindings(tx);
      const all = rows.concat(books.rows);
      const examined = new Set([...payins, ...settlements, ...payouts, ...events, ...refunds]);
      return {
        merchantsChecked: digest.merchants,
        eventsChecked: digest.events,
        rowsChecked: {
          payins: digest.payins,
          settlements: digest.settlements,
          disbursements: digest.disbursements,
          decisions: digest.decisions,
        },
        booksChecked: { entries: books.entries, postings: books.postings, accounts: books.accounts },
        merchantsExamined: examined.size,
        breaches: ordered(digest.balanceBreaches.concat(all.filter((r) => !r.in_flight).map(toBreach))),
        inFlight: ordered(all.filter((r) => r.in_flight).map(toBreach)),
        warnings: warnings.map(toBreach),
        graceSeconds,
      };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 30_000, timeout: 30 * 60_000 },
  );
}

/** By merchant, then fact, then row; a fact seen from both of its sides is reported once. */
function ordered(breaches: Breach[]): Breach[] {
  const unique = new Map(breaches.map((b) => [`${b.check}|${b.table}|${b.id}`, b]));
  return [...unique.values()].sort(
    (a, b) => (a.merchantId ?? 0) - (b.merchantId ?? 0) || a.check.localeCompare(b.check) || a.id.localeCompare(b.id),
  );
}
