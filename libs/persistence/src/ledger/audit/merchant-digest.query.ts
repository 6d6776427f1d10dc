import { Prisma, type TransactionClient } from '../../client/prisma';
import type { Breach, BreachRow } from './breach';
import { MERCHANT_EVENT_TYPES, PLATFORM_COMMAND_TYPES } from './event-types';

/** Which fact families disagreed, by merchant: the row-level queries look only at these. */
export interface DigestResult {
  merchants: number;
  events: number;
  payins: number;
  settlements: number;
  disbursements: number;
  decisions: number;
  balanceBreaches: Breach[];
  suspects: { payins: number[]; settlements: number[]; payouts: number[]; events: number[]; refunds: number[] };
  /** Merchants with successful pay-ins still in flight (within the grace period) */
  payinsInFlight: number[];
}

interface DigestRow {
  merchants: number;
  events: bigint;
  payins: bigint;
  settlements: bigint;
  disbursements: bigint;
  decisions: bigint;
  balance_breaches: BreachRow[];
  payin_suspects: number[];
  payin_young: number[];
  settlement_suspects: number[];
  refund_suspects: number[];
  payout_suspects: number[];
  event_suspects: number[];
}

/** `column = ANY(ids)`, or no restriction. */
export function inScope(column: string, merchantIds: number[] | null): Prisma.Sql {
  return merchantIds ? Prisma.sql`${Prisma.raw(column)} = ANY(${merchantIds}::int[])` : Prisma.sql`TRUE`;
}

/**
 * One statement, one parallel scan per table, grouped by merchant. Each side of a fact is
 * folded into a digest: the count, the exact sum of its money, and the sum of a 64-bit hash of
 * each row's identity with its amount (e.g. pay-in id + net + event id + sandbox mark on the
 * pay-in side, reference + pending delta + id + sandbox mark on the event side). Equal digests mean equal sets of facts
 * (a forged match needs a 64-bit hash collision); a merchant whose digests differ is examined
 * row by row. The balance fold is compared exactly here and reported directly.
 */
export async function merchantDigests(
  tx: TransactionClient,
  merchantIds: number[] | null,
  graceSeconds: number,
): Promise<DigestResult> {
  const [row] = await tx.$queryRaw<DigestRow[]>`
    WITH ev AS (
      SELECT merchant_id, count(*) AS n, max(seq) AS max_seq, sum(available_delta) AS available, sum(pending_delta) AS pending,
             count(*) FILTER (WHERE type <> ALL(${MERCHANT_EVENT_TYPES}::text[])) AS unknown,
             count(*) FILTER (WHERE type = 'payin.recorded') AS pr_n,
             sum(pending_delta) FILTER (WHERE type = 'payin.recorded') AS pr_net,
             -- Sandbox money (decision 0047): the nets of the pay-ins marked sandbox, and the mark in each pay-in's hash.
             sum(pending_delta) FILTER (WHERE type = 'payin.recorded' AND payload @> '{"sandbox": true}') AS sandbox,
             sum(hashtextextended(reference, hashint8extended(pending_delta, id) # (payload @> '{"sandbox": true}')::int::bigint))
               FILTER (WHERE type = 'payin.recorded' AND available_delta = 0) AS pr_h,
             count(*) FILTER (WHERE type = 'settlement.credited') AS sc_n,
             sum(hashtextextended(reference, available_delta)) FILTER (WHERE type = 'settlement.credited' AND pending_delta = -available_delta) AS sc_h,
             count(*) FILTER (WHERE type = 'payout.debited') AS pd_n,
             sum(hashtextextended(reference, available_delta)) FILTER (WHERE type = 'payout.debited' AND pending_delta = 0) AS pd_h,
             count(*) FILTER (WHERE type = 'payout.refunded') AS pf_n,
             sum(hashtextextended(reference, available_delta)) FILTER (WHERE type = 'payout.refunded' AND pending_delta = 0) AS pf_h,
             count(*) FILTER (WHERE type = 'payout.reversed') AS rv_n,
             sum(hashtextextended(reference, available_delta)) FILTER (WHERE type = 'payout.reversed' AND pending_delta = 0) AS rv_h,
             -- Refunds (issue 44): each debit and each return against the refund's row (reference: the refund's id)
             count(*) FILTER (WHERE type = 'payin.refunded') AS rf_n,
             sum(hashtextextended(reference, hashint8extended(-pending_delta, -available_delta))) FILTER (WHERE type = 'payin.refunded') AS rf_h,
             count(*) FILTER (WHERE type = 'payin.refund_returned') AS rr_n,
             sum(hashtextextended(reference, pending_delta + available_delta)) FILTER (WHERE type = 'payin.refund_returned') AS rr_h,
             sum(hashtextextended(command_id, id)) AS cmd_h
        FROM ledger_events WHERE ${inScope('merchant_id', merchantIds)} GROUP BY merchant_id
    ), ps AS (
      -- by merchant and settlement: parallel-capable, and both the merchant digest and the settlement totals come from it
      -- A successful pay-in not yet linked and changed within the grace period is in flight: left out
      -- here (an event booked for it anyway still shows on the event side) and listed apart.
      SELECT merchant_id, settlement_id, count(*) AS n,
             count(*) FILTER (WHERE status = 'success' AND NOT young) AS ok_n,
             sum(amount - fee) FILTER (WHERE status = 'success' AND NOT young) AS ok_net,
             count(*) FILTER (WHERE status = 'success' AND young) AS young_n,
             sum(hashtextextended(id::text, hashint8extended(amount - fee, ledger_event_id) # sandbox::int::bigint)) FILTER (WHERE status = 'success') AS ok_h,
             sum(amount - fee - refunded_pending) FILTER (WHERE status = 'success' AND ledger_event_id IS NOT NULL) AS booked_net,
             sum(refunded_pending) AS refunds,
             count(*) FILTER (WHERE status <> 'success' AND ledger_event_id IS NOT NULL) AS linked_unsuccessful,
             count(*) FILTER (WHERE fee <> LEAST(amount, div(amount::numeric * fee_pct_milli * 2 + 100000, 200000)::bigint + fee_fixed)) AS fee_off,
             sum(amount) AS gross, sum(fee) AS fees, sum(amount - fee - refunded_pending)::bigint AS net,
             count(*) FILTER (WHERE status <> 'success' OR ledger_event_id IS NULL) AS unbooked
        FROM (SELECT *, ledger_event_id IS NULL AND updated_at > now() - make_interval(secs => ${graceSeconds}) AS young FROM payins) p
       WHERE ${inScope('merchant_id', merchantIds)} GROUP BY merchant_id, settlement_id
    ), pm AS (
      SELECT merchant_id, sum(n) AS n, sum(ok_n) AS ok_n, sum(ok_net) AS ok_net, sum(ok_h) AS ok_h, sum(young_n) AS young_n,
             COALESCE(sum(booked_net) FILTER (WHERE settlement_id IS NULL), 0) AS unsettled_net,
             sum(linked_unsuccessful) AS linked_unsuccessful, sum(fee_off) AS fee_off
        FROM ps GROUP BY merchant_id
    ), st AS (
      SELECT s.merchant_id, count(*) AS n, sum(hashtextextended(s.id::text, COALESCE(ps.net, 0))) AS h,
             count(*) FILTER (WHERE ps.settlement_id IS NULL OR ps.merchant_id <> s.merchant_id OR ps.n <> s.payin_count OR ps.net <> s.amount
                                 OR ps.gross <> s.gross OR ps.fees <> s.fees OR ps.refunds <> s.refunds OR ps.unbooked > 0) AS off
        FROM settlements s LEFT JOIN ps ON ps.settlement_id = s.id
       WHERE ${inScope('s.merchant_id', merchantIds)} GROUP BY s.merchant_id
    ), rf AS (
      SELECT merchant_id,
             count(*) FILTER (WHERE ledger_event_id IS NOT NULL) AS rf_n,
             sum(hashtextextended(id::text, hashint8extended(from_pending, from_available))) FILTER (WHERE ledger_event_id IS NOT NULL) AS rf_h,
             count(*) FILTER (WHERE return_event_id IS NOT NULL) AS rr_n,
             sum(hashtextextended(id::text, amount)) FILTER (WHERE return_event_id IS NOT NULL) AS rr_h,
             -- debited without its event (or the reverse), returned though not failed, failed without its money back
             -- or still undecided by the ledger past the grace period
             count(*) FILTER (WHERE (status IN ('pending', 'success', 'failed')) <> (ledger_event_id IS NOT NULL)
                                 OR status <> 'failed' AND return_event_id IS NOT NULL
                                 OR status IN ('failed', 'debiting') AND return_event_id IS NULL
                                    AND updated_at <= now() - make_interval(secs => ${graceSeconds})) AS off
        FROM payin_refunds WHERE ${inScope('merchant_id', merchantIds)} GROUP BY merchant_id
    ), ds AS (
      SELECT merchant_id, count(*) AS n,
             count(*) FILTER (WHERE status IN ('pending', 'success', 'failed', 'reversed')) AS pd_n,
             sum(hashtextextended(id::text, -(amount + fee))) FILTER (WHERE status IN ('pending', 'success', 'failed', 'reversed')) AS pd_h,
             count(*) FILTER (WHERE status = 'reversed') AS rv_n,
             sum(hashtextextended(id::text, amount + fee)) FILTER (WHERE status = 'reversed') AS rv_h,
             count(*) FILTER (WHERE status = 'failed') AS pf_n,
             sum(hashtextextended(id::text, amount + fee)) FILTER (WHERE status = 'failed') AS pf_h,
             count(*) FILTER (WHERE status = 'funding' AND updated_at <= now() - make_interval(secs => ${graceSeconds})) AS undecided
        FROM disbursements WHERE ${inScope('merchant_id', merchantIds)} GROUP BY merchant_id
    ), cm AS (
      -- Commands that book platform entries, not events (decision 0049; a platform adjustment too): the books audit checks those.
      SELECT merchant_id, count(*) AS n, count(*) FILTER (WHERE outcome = 'applied' AND type <> ALL(${PLATFORM_COMMAND_TYPES}::text[]) AND NOT (type = 'books.adjust' AND event_id IS NULL)) AS applied,
             sum(hashtextextended(command_id, event_id)) FILTER (WHERE outcome = 'applied' AND type <> ALL(${PLATFORM_COMMAND_TYPES}::text[]) AND NOT (type = 'books.adjust' AND event_id IS NULL)) AS h,
             count(*) FILTER (WHERE outcome <> 'applied' AND event_id IS NOT NULL) AS off
        FROM ledger_commands WHERE ${inScope('merchant_id', merchantIds)} GROUP BY merchant_id
    ), per AS (
      SELECT m.id AS merchant_id,
             COALESCE(b.available, 0) AS proj_available, COALESCE(b.pending, 0) AS proj_pending, COALESCE(b.last_seq, 0) AS proj_last_seq,
             COALESCE(b.sandbox_received, 0) AS proj_sandbox,
             COALESCE(ev.available, 0) AS ev_available, COALESCE(ev.pending, 0) AS ev_pending, COALESCE(ev.max_seq, 0) AS ev_max_seq,
             COALESCE(ev.sandbox, 0) AS ev_sandbox,
             COALESCE(ev.n, 0) AS ev_n, COALESCE(pm.unsettled_net, 0) AS unsettled_net,
             COALESCE(pm.n, 0) AS payins, pm.young_n > 0 AS payins_young, COALESCE(st.n, 0) AS settlements, COALESCE(ds.n, 0) AS disbursements, COALESCE(cm.n, 0) AS decisions,
             (COALESCE(ev.pr_n, 0), COALESCE(ev.pr_net, 0), ev.pr_h) IS DISTINCT FROM (COALESCE(pm.ok_n, 0), COALESCE(pm.ok_net, 0), pm.ok_h)
               OR pm.linked_unsuccessful > 0 OR pm.fee_off > 0 AS payins_off,
             (COALESCE(ev.sc_n, 0), ev.sc_h) IS DISTINCT FROM (COALESCE(st.n, 0), st.h) OR st.off > 0 AS settlements_off,
             (COALESCE(ev.rf_n, 0), ev.rf_h, COALESCE(ev.rr_n, 0), ev.rr_h) IS DISTINCT FROM (COALESCE(rf.rf_n, 0), rf.rf_h, COALESCE(rf.rr_n, 0), rf.rr_h)
               OR rf.off > 0 AS refunds_off,
             (COALESCE(ev.pd_n, 0), ev.pd_h, COALESCE(ev.pf_n, 0), ev.pf_h, COALESCE(ev.rv_n, 0), ev.rv_h)
               IS DISTINCT FROM (COALESCE(ds.pd_n, 0), ds.pd_h, COALESCE(ds.pf_n, 0), ds.pf_h, COALESCE(ds.rv_n, 0), ds.rv_h)
               OR ds.undecided > 0 AS payouts_off,
             (COALESCE(ev.n, 0), ev.cmd_h) IS DISTINCT FROM (COALESCE(cm.applied, 0), cm.h) OR cm.off > 0 OR ev.unknown > 0 AS events_off
        FROM merchants m
        LEFT JOIN balances b ON b.merchant_id = m.id
        LEFT JOIN ev ON ev.merchant_id = m.id
        LEFT JOIN pm ON pm.merchant_id = m.id
        LEFT JOIN st ON st.merchant_id = m.id
        LEFT JOIN ds ON ds.merchant_id = m.id
        LEFT JOIN cm ON cm.merchant_id = m.id
        LEFT JOIN rf ON rf.merchant_id = m.id
       WHERE ${inScope('m.id', merchantIds)}
    )
    SELECT count(*)::int AS merchants, COALESCE(sum(ev_n), 0)::bigint AS events, COALESCE(sum(payins), 0)::bigint AS payins,
           COALESCE(sum(settlements), 0)::bigint AS settlements, COALESCE(sum(disbursements), 0)::bigint AS disbursements,
           COALESCE(sum(decisions), 0)::bigint AS decisions,
           COALESCE(array_agg(merchant_id ORDER BY merchant_id) FILTER (WHERE payins_off), '{}') AS payin_suspects,
           COALESCE(array_agg(merchant_id ORDER BY merchant_id) FILTER (WHERE payins_young), '{}') AS payin_young,
           COALESCE(array_agg(merchant_id ORDER BY merchant_id) FILTER (WHERE settlements_off), '{}') AS settlement_suspects,
           COALESCE(array_agg(merchant_id ORDER BY merchant_id) FILTER (WHERE refunds_off), '{}') AS refund_suspects,
           COALESCE(array_agg(merchant_id ORDER BY merchant_id) FILTER (WHERE payouts_off), '{}') AS payout_suspects,
           COALESCE(array_agg(merchant_id ORDER BY merchant_id) FILTER (WHERE events_off), '{}') AS event_suspects,
           (SELECT COALESCE(json_agg(json_build_object('check', c.rule, 'tbl', 'balances', 'id', p.merchant_id::text, 'merchant_id', p.merchant_id,
                                                       'expected', c.expected, 'found', c.found, 'in_flight', false) ORDER BY p.merchant_id, c.rule), '[]')
              FROM per p CROSS JOIN LATERAL (VALUES
                ('balance.available', 'available ' || p.ev_available || ' (sum of the events)', 'available ' || p.proj_available, p.proj_available <> p.ev_available),
                ('balance.pending', 'pending ' || p.ev_pending || ' (sum of the events)', 'pending ' || p.proj_pending, p.proj_pending <> p.ev_pending),
                ('balance.sandbox_received', 'sandbox_received ' || p.ev_sandbox || ' (nets of the payin.recorded events marked sandbox)',
                 'sandbox_received ' || p.proj_sandbox, p.proj_sandbox <> p.ev_sandbox),
                ('balance.last_seq', 'last_seq ' || p.ev_max_seq || ' (highest event seq)', 'last_seq ' || p.proj_last_seq, p.proj_last_seq <> p.ev_max_seq),
                ('balance.seq_gap', 'seq 1..' || p.ev_n || ' without gaps', p.ev_n || ' events up to seq ' || p.ev_max_seq, p.ev_n <> p.ev_max_seq),
                ('balance.pending_payins', 'pending ' || p.unsettled_net || ' (nets of recorded, unsettled successful pay-ins)', 'pending ' || p.proj_pending,
                 p.proj_pending <> p.unsettled_net)
              ) AS c(rule, expected, found, bad)
             WHERE c.bad) AS balance_breaches
      FROM per`;
  return {
    merchants: row.merchants,
    events: Number(row.events),
    payins: Number(row.payins),
    settlements: Number(row.settlements),
    disbursements: Number(row.disbursements),
    decisions: Number(row.decisions),
    balanceBreaches: row.balance_breaches.map((b) => ({
      check: b.check,
      table: b.tbl,
      id: b.id,
      merchantId: b.merchant_id,
      expected: b.expected,
      found: b.found,
    })),
    suspects: {
      payins: row.payin_suspects,
      settlements: row.settlement_suspects,
      refunds: row.refund_suspects,
      payouts: row.payout_suspects,
      events: row.event_suspects,
    },
    payinsInFlight: row.payin_young,
  };
}
