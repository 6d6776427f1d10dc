import { Prisma, type TransactionClient } from '../../client/prisma';
import { type BreachRow, UUID_PATTERN } from './breach';
import { MERCHANT_EVENT_TYPES, PLATFORM_COMMAND_TYPES, PLATFORM_ENTRY_TYPES } from './event-types';
import { inScope } from './merchant-digest.query';

export interface BooksFacts {
  entries: number;
  postings: number;
  accounts: number;
  rows: BreachRow[];
}

interface BooksRow {
  entries: bigint;
  postings: bigint;
  accounts: bigint;
  /** sum over postings of amount x a 32-bit hash of its entry: zero when every entry balances */
  sketch: string;
  breaches: BreachRow[];
  event_suspects: number[];
}

/**
 * The books (decision 0049), in one snapshot with the rest of the audit:
 * - every entry's postings sum to zero: one pass over the postings folds each amount times a
 *   hash of its entry into one sum, zero exactly when every entry balances (an unbalanced entry
 *   makes it non-zero unless its imbalance times its hash cancels another's: odds of 2^-32);
 *   only then are the postings grouped by entry to name the entries;
 * - every platform account (its folded row plus its unfolded deltas) is the sum of its postings;
 * - each merchant's liability accounts are its balance (available, pending);
 * - each merchant event has its entry (an event of no known type is the audit's event.unknown_type) and the entry moves the merchant's accounts by the
 *   event's deltas (per merchant digests of both sides; differing merchants are examined row by row);
 * - the trial balance (every account together) is zero.
 * Scoped to merchants, it reads their entries and accounts only (the platform's accounts hold
 * every merchant's money, so their fold and the trial balance are checked unscoped).
 */
export async function booksFacts(
  tx: TransactionClient,
  merchantIds: number[] | null,
  graceSeconds: number,
): Promise<BooksFacts> {
  const scoped = merchantIds !== null;
  const unscoped = scoped ? Prisma.sql`FALSE` : Prisma.sql`TRUE`;
  // The postings view carries each entry's merchant: a scoped audit reads only theirs.
  const entryScope = inScope('merchant_id', merchantIds);
  const accountScope = scoped
    ? Prisma.sql`${inScope("(regexp_match(code, '^merchant:([0-9]+):'))[1]::int", merchantIds)}`
    : Prisma.sql`TRUE`;
  const [row] = await tx.$queryRaw<BooksRow[]>`
    WITH p AS (
      SELECT account, sum(amount) AS total, count(*) AS n,
             sum(amount::numeric * hashint8(entry_id)) AS sketch,
             sum(hashint8extended(amount, entry_id)) AS h
        FROM postings WHERE ${entryScope} GROUP BY account
    ), a AS (
      SELECT code, balance FROM account_balances WHERE ${accountScope}
    ), fold AS (
      SELECT coalesce(a.code, p.account) AS code, coalesce(a.balance, 0) AS balance, coalesce(p.total, 0) AS total
        FROM a FULL JOIN p ON p.account = a.code
       -- a merchant's accounts are its balance: books.merchant_account compares them with their postings
       WHERE coalesce(a.balance, 0) <> coalesce(p.total, 0) AND ${unscoped} AND coalesce(a.code, p.account) NOT LIKE 'merchant:%'
    ), ev AS (
      SELECT merchant_id, count(*) AS n,
             sum(hashint8extended(-available_delta, id)) FILTER (WHERE available_delta <> 0) AS av_h,
             sum(hashint8extended(-pending_delta, id)) FILTER (WHERE pending_delta <> 0) AS pe_h,
             sum(hashint8extended(id, 49)) AS id_h
        FROM ledger_events WHERE type = ANY(${MERCHANT_EVENT_TYPES}::text[]) AND ${inScope('merchant_id', merchantIds)} GROUP BY merchant_id
    ), je AS (
      SELECT merchant_id, count(*) FILTER (WHERE type = ANY(${MERCHANT_EVENT_TYPES}::text[])) AS n,
             sum(hashint8extended(id, 49)) FILTER (WHERE type = ANY(${MERCHANT_EVENT_TYPES}::text[])) AS id_h,
             count(*) FILTER (WHERE type = ANY(${PLATFORM_ENTRY_TYPES}::text[])) AS pe_n,
             count(*) FILTER (WHERE type = 'payout.confirmed' AND reference ~ ${UUID_PATTERN}) AS cf_n,
             sum(hashtextextended(reference, 11)) FILTER (WHERE type = 'payout.confirmed' AND reference ~ ${UUID_PATTERN}) AS cf_h,
             sum(hashtextextended(command_id, 49)) FILTER (WHERE type = ANY(${PLATFORM_ENTRY_TYPES}::text[])) AS pe_h
        FROM journal_entries WHERE merchant_id IS NOT NULL AND ${inScope('merchant_id', merchantIds)}
       GROUP BY merchant_id
    ), dc AS (
      -- every disbursement the bank paid (success, or reversed after it) has its payout.confirmed entry
      SELECT merchant_id, count(*) AS n, sum(hashtextextended(id::text, 11)) AS h
        FROM disbursements WHERE status IN ('success', 'reversed') AND ${inScope('merchant_id', merchantIds)}
       GROUP BY merchant_id
    ), pc AS (
      -- the ledger's applied decisions that book platform entries (payout sent, confirmed)
      SELECT merchant_id, count(*) AS n, sum(hashtextextended(command_id, 49)) AS h
        FROM ledger_commands
       WHERE type = ANY(${PLATFORM_COMMAND_TYPES}::text[]) AND outcome = 'applied' AND ${inScope('merchant_id', merchantIds)}
       GROUP BY merchant_id
    ), per AS (
      SELECT m.id AS merchant_id, b.available, b.pending,
             -coalesce(av.total, 0) AS book_available, -coalesce(pe.total, 0) AS book_pending,
             (coalesce(ev.n, 0), ev.id_h, ev.av_h, ev.pe_h) IS DISTINCT FROM (coalesce(je.n, 0), je.id_h, av.h, pe.h)
               OR (coalesce(je.pe_n, 0), je.pe_h) IS DISTINCT FROM (coalesce(pc.n, 0), pc.h)
               OR (coalesce(je.cf_n, 0), je.cf_h) IS DISTINCT FROM (coalesce(dc.n, 0), dc.h) AS off
        FROM merchants m
        LEFT JOIN balances b ON b.merchant_id = m.id
        LEFT JOIN ev ON ev.merchant_id = m.id
        LEFT JOIN je ON je.merchant_id = m.id
        LEFT JOIN pc ON pc.merchant_id = m.id
        LEFT JOIN dc ON dc.merchant_id = m.id
        LEFT JOIN p av ON av.account = 'merchant:' || m.id || ':available'
        LEFT JOIN p pe ON pe.account = 'merchant:' || m.id || ':pending'
       WHERE ${inScope('m.id', merchantIds)}
    )
    SELECT (SELECT count(*) FROM journal_entries WHERE ${inScope('merchant_id', merchantIds)}) AS entries,
           (SELECT coalesce(sum(n), 0) FROM p)::bigint AS postings,
           (SELECT count(*) FROM (SELECT account FROM p UNION SELECT code FROM a) x) AS accounts,
           (SELECT coalesce(sum(sketch), 0) FROM p)::text AS sketch,
           coalesce(array(SELECT merchant_id FROM per WHERE off ORDER BY merchant_id), '{}') AS event_suspects,
           (SELECT coalesce(json_agg(r), '[]') FROM (
              SELECT 'books.account_fold' AS "check", 'accounts' AS tbl, f.code AS id,
                     (regexp_match(f.code, '^merchant:([0-9]+):'))[1]::int AS merchant_id,
                     'balance ' || f.total || ' (debits minus credits of its postings)' AS expected, 'balance ' || f.balance AS found, false AS in_flight
                FROM fold f
              UNION ALL
              SELECT 'books.merchant_account', 'accounts', 'merchant:' || p.merchant_id || ':' || c.side, p.merchant_id,
                     c.side || ' ' || c.balance || ' (the merchant''s balance)', 'credit balance ' || c.book, false
                FROM per p CROSS JOIN LATERAL (VALUES ('available', p.available, p.book_available), ('pending', p.pending, p.book_pending)) AS c(side, balance, book)
               WHERE c.book IS DISTINCT FROM coalesce(c.balance, 0)
              UNION ALL
              SELECT 'books.trial_balance', 'accounts', 'all accounts', NULL, 'total 0 (debits = credits)', 'total ' || t.total, false
                FROM (SELECT sum(balance) AS total FROM account_balances) t
               WHERE ${unscoped} AND t.total <> 0
            ) r) AS breaches`;
  // concat, not push(...rows): a history with many breaches would overflow the call stack
  let rows = row.breaches;
  if (row.sketch !== '0') rows = rows.concat(await unbalancedEntries(tx, entryScope));
  if (row.event_suspects.length > 0)
    rows = rows.concat(
      await eventEntryBreaches(tx, row.event_suspects),
      await confirmedPayoutBreaches(tx, row.event_suspects, graceSeconds),
    );
  if (!scoped) rows = rows.concat(await platformEntryBreaches(tx));
  return { entries: Number(row.entries), postings: Number(row.postings), accounts: Number(row.accounts), rows };
}

/**
 * The platform's own entries (no merchant: acquirer settlements, rail fees, platform
 * adjustments) against the ledger's decisions of merchant 0 that booked them. Few rows, read
 * by the decisions' merchant index.
 */
function platformEntryBreaches(tx: TransactionClient): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH c AS (
      SELECT command_id FROM ledger_commands WHERE merchant_id = 0 AND outcome = 'applied'
    ), j AS (
      SELECT id, command_id FROM journal_entries WHERE merchant_id IS NULL
    )
    SELECT CASE WHEN j.id IS NULL THEN 'books.decision_entry_missing' ELSE 'books.entry_undecided' END AS "check",
           CASE WHEN j.id IS NULL THEN 'ledger_commands' ELSE 'journal_entries' END AS tbl,
           coalesce(j.id::text, c.command_id) AS id, NULL::int AS merchant_id,
           CASE WHEN j.id IS NULL THEN 'the journal entry of applied command ' || c.command_id
                ELSE 'an applied decision of command ' || j.command_id END AS expected,
           CASE WHEN j.id IS NULL THEN 'no entry' ELSE 'none' END AS found, false AS in_flight
      FROM c FULL JOIN j ON j.command_id = c.command_id
     WHERE c.command_id IS NULL OR j.id IS NULL`;
}

/**
 * Disbursements the bank paid against their payout.confirmed entries (what is in transit and
 * payable is then exactly what the banks have not paid): a paid one without its entry (in flight
 * within the grace period: the payout service's confirmation may still be on the bus), and an
 * entry for a disbursement that was not paid. A reference that is not a UUID is not a
 * disbursement (a manual correction, a test) and is not checked here.
 */
function confirmedPayoutBreaches(
  tx: TransactionClient,
  merchantIds: number[],
  graceSeconds: number,
): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH d AS (
      SELECT id::text AS id, merchant_id, status, updated_at FROM disbursements WHERE merchant_id = ANY(${merchantIds}::int[])
    ), j AS (
      SELECT id, reference, merchant_id FROM journal_entries
       WHERE type = 'payout.confirmed' AND merchant_id = ANY(${merchantIds}::int[]) AND reference ~ ${UUID_PATTERN}
    )
    SELECT CASE WHEN j.id IS NULL THEN 'books.payout_unconfirmed' ELSE 'books.payout_confirmed_unexpected' END AS "check",
           CASE WHEN j.id IS NULL THEN 'disbursements' ELSE 'journal_entries' END AS tbl,
           coalesce(d.id, j.id::text) AS id, coalesce(d.merchant_id, j.merchant_id) AS merchant_id,
           CASE WHEN j.id IS NULL THEN 'a payout.confirmed entry (the disbursement is ' || d.status || ')'
                ELSE 'no payout.confirmed: disbursement ' || j.reference || coalesce(' is ' || d.status, ' does not exist') END AS expected,
           CASE WHEN j.id IS NULL THEN 'none' ELSE 'entry ' || j.id END AS found,
           j.id IS NULL AND d.updated_at > now() - make_interval(secs => ${graceSeconds}) AS in_flight
      FROM d FULL JOIN j ON j.reference = d.id AND j.merchant_id = d.merchant_id
     WHERE (d.status IN ('success', 'reversed') AND j.id IS NULL) OR (j.id IS NOT NULL AND (d.id IS NULL OR d.status NOT IN ('success', 'reversed')))`;
}

/** The entries whose postings do not sum to zero (the sketch said some do). */
function unbalancedEntries(tx: TransactionClient, entryScope: Prisma.Sql): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    SELECT 'books.entry_unbalanced' AS "check", 'journal_entries' AS tbl, p.entry_id::text AS id, e.merchant_id,
           'postings summing to 0' AS expected, 'postings summing to ' || p.total AS found, false AS in_flight
      FROM (SELECT entry_id, sum(amount) AS total FROM postings WHERE ${entryScope} GROUP BY entry_id HAVING sum(amount) <> 0) p
      LEFT JOIN journal_entries e ON e.id = p.entry_id`;
}

/** Merchants whose events and entries disagree, event by event; and platform entries against their decisions. */
async function eventEntryBreaches(tx: TransactionClient, merchantIds: number[]): Promise<BreachRow[]> {
  const platform = await tx.$queryRaw<BreachRow[]>`
    WITH c AS (
      SELECT command_id, merchant_id FROM ledger_commands
       WHERE merchant_id = ANY(${merchantIds}::int[]) AND type = ANY(${PLATFORM_COMMAND_TYPES}::text[]) AND outcome = 'applied'
    ), j AS (
      SELECT id, command_id, merchant_id, type FROM journal_entries
       WHERE merchant_id = ANY(${merchantIds}::int[]) AND type = ANY(${PLATFORM_ENTRY_TYPES}::text[])
    )
    SELECT CASE WHEN j.id IS NULL THEN 'books.decision_entry_missing' ELSE 'books.entry_undecided' END AS "check",
           CASE WHEN j.id IS NULL THEN 'ledger_commands' ELSE 'journal_entries' END AS tbl,
           coalesce(j.id::text, c.command_id) AS id, coalesce(j.merchant_id, c.merchant_id) AS merchant_id,
           CASE WHEN j.id IS NULL THEN 'the journal entry of applied command ' || c.command_id
                ELSE 'an applied decision of command ' || j.command_id END AS expected,
           CASE WHEN j.id IS NULL THEN 'no entry' ELSE 'none' END AS found, false AS in_flight
      FROM c FULL JOIN j ON j.command_id = c.command_id
     WHERE c.command_id IS NULL OR j.id IS NULL`;
  return platform.concat(await merchantEventEntries(tx, merchantIds));
}

function merchantEventEntries(tx: TransactionClient, merchantIds: number[]): Promise<BreachRow[]> {
  return tx.$queryRaw<BreachRow[]>`
    WITH e AS (
      SELECT id, merchant_id, type, available_delta, pending_delta FROM ledger_events
       WHERE merchant_id = ANY(${merchantIds}::int[]) AND type = ANY(${MERCHANT_EVENT_TYPES}::text[])
    ), j AS (
      SELECT je.id, je.merchant_id, je.type,
             -coalesce(sum(p.amount) FILTER (WHERE p.account = 'merchant:' || je.merchant_id || ':available'), 0) AS available,
             -coalesce(sum(p.amount) FILTER (WHERE p.account = 'merchant:' || je.merchant_id || ':pending'), 0) AS pending
        FROM journal_entries je LEFT JOIN postings p ON p.entry_id = je.id
       WHERE je.merchant_id = ANY(${merchantIds}::int[]) AND je.type = ANY(${MERCHANT_EVENT_TYPES}::text[])
       GROUP BY je.id
    )
    SELECT CASE WHEN j.id IS NULL THEN 'books.entry_missing' WHEN e.id IS NULL THEN 'books.entry_unexpected' ELSE 'books.entry_amount' END AS "check",
           CASE WHEN e.id IS NULL THEN 'journal_entries' ELSE 'ledger_events' END AS tbl,
           coalesce(e.id, j.id)::text AS id, coalesce(e.merchant_id, j.merchant_id) AS merchant_id,
           CASE WHEN e.id IS NULL THEN 'no entry without a ledger event of its merchant'
                ELSE 'an entry moving available ' || e.available_delta || ', pending ' || e.pending_delta END AS expected,
           CASE WHEN j.id IS NULL THEN 'no entry'
                ELSE 'entry ' || j.id || ' (' || j.type || ') moving available ' || j.available || ', pending ' || j.pending END AS found,
           false AS in_flight
      FROM e FULL JOIN j ON j.id = e.id
     WHERE j.id IS NULL OR e.id IS NULL OR e.merchant_id <> j.merchant_id OR e.type <> j.type
        OR e.available_delta <> j.available OR e.pending_delta <> j.pending`;
}
