import { randomUUID } from 'node:crypto';
import { Account, jakartaDay } from '@pay/domain';
import { sql, type SqlClient } from '@pay/persistence';
import type {
  Break,
  LedgerPayin,
  LedgerPayout,
  LedgerRailFee,
  LedgerRefund,
  RefundLine,
  ReportLine,
  SettlementReport,
  StatementLine,
} from '../matching/recon-types';

const day = (d: Date | string | null): string | null =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);

export type SourceKind = 'report' | 'statement';
export type SourceOrigin = 'snap' | 'csv';

/** Replaces a day's report (or statement) with these lines: the latest ingested is the one reconciled. */
async function replaceSource(
  tx: SqlClient,
  s: { kind: SourceKind; name: string; date: string; origin: SourceOrigin; lineCount: number; by: string },
): Promise<string> {
  await tx.execute(
    sql`DELETE FROM recon_sources WHERE kind = ${s.kind} AND name = ${s.name} AND date = ${s.date}::date`,
  );
  const id = randomUUID();
  await tx.execute(sql`
    INSERT INTO recon_sources (id, kind, name, date, origin, line_count, ingested_by)
    VALUES (${id}::uuid, ${s.kind}, ${s.name}, ${s.date}::date, ${s.origin}, ${s.lineCount}, ${s.by})`);
  return id;
}

export async function storeReport(
  tx: SqlClient,
  s: { acquirer: string; date: string; origin: SourceOrigin; by: string },
  { lines, refunds }: SettlementReport,
): Promise<void> {
  const id = await replaceSource(tx, {
    ...s,
    kind: 'report',
    name: s.acquirer,
    lineCount: lines.length + refunds.length,
  });
  if (refunds.length > 0)
    await tx.execute(sql`
      INSERT INTO recon_report_refunds (source_id, line_no, rrn, refund_no, partner_refund_no, batch_id, amount, refund_date)
      SELECT ${id}::uuid, * FROM unnest(${refunds.map((l) => l.lineNo)}::int[], ${refunds.map((l) => l.rrn)}::text[],
        ${refunds.map((l) => l.refundNo)}::text[], ${refunds.map((l) => l.partnerRefundNo)}::text[],
        ${refunds.map((l) => l.batchId)}::text[], ${refunds.map((l) => l.amount.toString())}::bigint[],
        ${refunds.map((l) => l.refundDate)}::date[])`);
  if (lines.length === 0) return;
  await tx.execute(sql`
    INSERT INTO recon_report_lines (source_id, line_no, rrn, reference_no, batch_id, gross, mdr, net, transaction_date, settlement_date)
    SELECT ${id}::uuid, * FROM unnest(${lines.map((l) => l.lineNo)}::int[], ${lines.map((l) => l.rrn)}::text[],
      ${lines.map((l) => l.referenceNo)}::text[], ${lines.map((l) => l.batchId)}::text[],
      ${lines.map((l) => l.gross.toString())}::bigint[], ${lines.map((l) => l.mdr.toString())}::bigint[],
      ${lines.map((l) => l.net.toString())}::bigint[], ${lines.map((l) => l.transactionDate)}::date[],
      ${lines.map((l) => l.settlementDate)}::date[])`);
}

export async function storeStatement(
  tx: SqlClient,
  s: { rail: string; date: string; origin: SourceOrigin; by: string },
  lines: readonly StatementLine[],
): Promise<void> {
  const id = await replaceSource(tx, { ...s, kind: 'statement', name: s.rail, lineCount: lines.length });
  if (lines.length === 0) return;
  await tx.execute(sql`
    INSERT INTO recon_statement_lines (source_id, line_no, transaction_id, type, amount, transaction_date, remark)
    SELECT ${id}::uuid, * FROM unnest(${lines.map((l) => l.lineNo)}::int[], ${lines.map((l) => l.transactionId)}::text[],
      ${lines.map((l) => l.type)}::text[], ${lines.map((l) => l.amount.toString())}::bigint[],
      ${lines.map((l) => l.date)}::date[], ${lines.map((l) => l.remark)}::text[])`);
}

interface ReportRow {
  line_no: number;
  rrn: string;
  reference_no: string | null;
  batch_id: string;
  gross: bigint;
  mdr: bigint;
  net: bigint;
  transaction_date: Date | null;
  settlement_date: Date;
}
const reportLine = (r: ReportRow): ReportLine => ({
  lineNo: r.line_no,
  rrn: r.rrn,
  referenceNo: r.reference_no,
  batchId: r.batch_id,
  gross: r.gross,
  mdr: r.mdr,
  net: r.net,
  transactionDate: day(r.transaction_date),
  settlementDate: day(r.settlement_date) as string,
});

interface RefundRow {
  line_no: number;
  rrn: string;
  refund_no: string | null;
  partner_refund_no: string | null;
  batch_id: string;
  amount: bigint;
  refund_date: Date | null;
}
const refundLine = (r: RefundRow): RefundLine => ({
  lineNo: r.line_no,
  rrn: r.rrn,
  refundNo: r.refund_no,
  partnerRefundNo: r.partner_refund_no,
  batchId: r.batch_id,
  amount: r.amount,
  refundDate: day(r.refund_date),
});

/** The day's report (its payment and refund lines), or null when none was ingested. */
export async function reportOf(tx: SqlClient, acquirer: string, date: string): Promise<SettlementReport | null> {
  const sources = await tx.query<{ id: string }>(
    sql`SELECT id FROM recon_sources WHERE kind = 'report' AND name = ${acquirer} AND date = ${date}::date`,
  );
  if (sources.length === 0) return null;
  const rows = await tx.query<ReportRow>(
    sql`SELECT * FROM recon_report_lines WHERE source_id = ${sources[0].id}::uuid ORDER BY line_no`,
  );
  const refunds = await tx.query<RefundRow>(
    sql`SELECT * FROM recon_report_refunds WHERE source_id = ${sources[0].id}::uuid ORDER BY line_no`,
  );
  return { lines: rows.map(reportLine), refunds: refunds.map(refundLine) };
}

export async function statementOf(tx: SqlClient, rail: string, date: string): Promise<StatementLine[] | null> {
  const sources = await tx.query<{ id: string }>(
    sql`SELECT id FROM recon_sources WHERE kind = 'statement' AND name = ${rail} AND date = ${date}::date`,
  );
  if (sources.length === 0) return null;
  const rows = await tx.query<{
    line_no: number;
    transaction_id: string;
    type: 'CREDIT' | 'DEBIT';
    amount: bigint;
    transaction_date: Date;
    remark: string;
  }>(sql`SELECT * FROM recon_statement_lines WHERE source_id = ${sources[0].id}::uuid ORDER BY line_no`);
  return rows.map((r) => ({
    lineNo: r.line_no,
    transactionId: r.transaction_id,
    type: r.type,
    amount: r.amount,
    date: day(r.transaction_date) as string,
    remark: r.remark,
  }));
}

/**
 * The lines, in every stored report of the acquirer, of the batches the statement credits or that
 * settle on `date`, each line numbered as in its own report.
 */
export async function settlementLines(
  tx: SqlClient,
  acquirer: string,
  date: string,
  batchIds: readonly string[],
): Promise<ReportLine[]> {
  const rows = await tx.query<ReportRow>(sql`
    SELECT l.* FROM recon_report_lines l JOIN recon_sources s ON s.id = l.source_id
     WHERE s.kind = 'report' AND s.name = ${acquirer}
       AND l.batch_id IN (SELECT batch_id FROM recon_report_lines l2 JOIN recon_sources s2 ON s2.id = l2.source_id
                           WHERE s2.kind = 'report' AND s2.name = ${acquirer}
                             AND (l2.settlement_date = ${date}::date OR l2.batch_id = ANY(${[...batchIds]}::text[])))
     ORDER BY s.date, l.line_no`);
  return rows.map(reportLine);
}

/** The refund lines, in every stored report of the acquirer, of these batches (each numbered as in its own report). */
export async function settlementRefunds(
  tx: SqlClient,
  acquirer: string,
  batchIds: readonly string[],
): Promise<RefundLine[]> {
  const rows = await tx.query<RefundRow>(sql`
    SELECT l.* FROM recon_report_refunds l JOIN recon_sources s ON s.id = l.source_id
     WHERE s.kind = 'report' AND s.name = ${acquirer} AND l.batch_id = ANY(${[...batchIds]}::text[])
     ORDER BY s.date, l.line_no`);
  return rows.map(refundLine);
}

/** Of these refund ids, those a stored report of the acquirer for another day than `date` nets. */
export async function refundsReportedElsewhere(
  tx: SqlClient,
  acquirer: string,
  date: string,
  refundIds: readonly string[],
): Promise<Set<string>> {
  const rows = await tx.query<{ id: string }>(sql`
    SELECT DISTINCT l.partner_refund_no AS id FROM recon_report_refunds l JOIN recon_sources s ON s.id = l.source_id
     WHERE s.kind = 'report' AND s.name = ${acquirer} AND s.date <> ${date}::date
       AND l.partner_refund_no = ANY(${[...refundIds]}::text[])`);
  return new Set(rows.map((r) => r.id));
}

/** A refund's acquirer time (SNAP's refundTime, ISO-8601 with its offset), else when we learned it. */
const REFUNDED_AT = sql`CASE WHEN r.refund_time ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$'
  THEN r.refund_time::timestamptz ELSE r.completed_at END`;

/**
 * The refunds the acquirer made (success) of the pay-ins it acquired (as ledgerPayins, sandbox money
 * exactly when the acquirer's account is the sandbox's): those refunded on `date`, those of `ids`
 * (our refund ids) and those of the pay-ins of `rrns`.
 */
export async function ledgerRefunds(
  tx: SqlClient,
  o: { sandbox: boolean; date: string; ids: readonly string[]; rrns: readonly string[] },
): Promise<LedgerRefund[]> {
  const range = jakartaDay(o.date);
  const uuids = o.ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  const rows = await tx.query<{ id: string; payin_id: string; rrn: string; amount: bigint; refunded_on: string }>(sql`
    SELECT id, payin_id, rrn, amount, refunded_on FROM (
      SELECT r.id::text AS id, r.payin_id::text AS payin_id, p.rrn, r.amount, ${REFUNDED_AT} AS refunded_at,
             to_char(${REFUNDED_AT} AT TIME ZONE 'Asia/Jakarta', 'YYYY-MM-DD') AS refunded_on
        FROM payin_refunds r JOIN payins p ON p.id = r.payin_id
       WHERE r.status = 'success' AND p.rrn IS NOT NULL AND p.sandbox = ${o.sandbox}
         AND p.acquirer_reference IS NOT NULL AND p.acquirer_reference NOT LIKE 'SBX-%'
         AND (r.id = ANY(${uuids}::uuid[]) OR p.rrn = ANY(${[...o.rrns]}::text[])
              OR r.completed_at >= ${range.from}::timestamptz - interval '1 day')
    ) x
     WHERE refunded_on = ${o.date} OR id = ANY(${uuids}::text[]) OR rrn = ANY(${[...o.rrns]}::text[])
     ORDER BY refunded_at, id`);
  return rows.map((r) => ({
    refundId: r.id,
    payinId: r.payin_id,
    rrn: r.rrn,
    amount: r.amount,
    refundedOn: r.refunded_on,
  }));
}

/**
 * The pay-ins the acquirer acquired (its reference, an RRN; not the gateway's own sandbox payer's
 * `SBX-`), successful, sandbox money exactly when the acquirer's account is the sandbox's: those paid
 * on `date`, or those of `rrns`.
 */
export async function ledgerPayins(
  tx: SqlClient,
  o: { sandbox: boolean; date?: string; rrns?: readonly string[] },
): Promise<LedgerPayin[]> {
  const range = o.date ? jakartaDay(o.date) : null;
  const rows = await tx.query<{ id: string; rrn: string; amount: bigint; paid_on: string }>(sql`
    SELECT id::text, rrn, amount, to_char(success_at AT TIME ZONE 'Asia/Jakarta', 'YYYY-MM-DD') AS paid_on
      FROM payins
     WHERE status = 'success' AND rrn IS NOT NULL AND sandbox = ${o.sandbox}
       AND acquirer_reference IS NOT NULL AND acquirer_reference NOT LIKE 'SBX-%'
       AND (${range ? range.from : null}::timestamptz IS NULL OR (success_at >= ${range?.from ?? null}::timestamptz AND success_at < ${range?.to ?? null}::timestamptz))
       AND (${o.rrns ? [...o.rrns] : null}::text[] IS NULL OR rrn = ANY(${o.rrns ? [...o.rrns] : null}::text[]))
     ORDER BY success_at, id`);
  return rows.map((r) => ({ payinId: r.id, rrn: r.rrn, amount: r.amount, paidOn: r.paid_on }));
}

/** Payouts the books confirmed paid from the rail's bank (payout.confirmed), on `date` or named in `references`. */
export async function ledgerPayouts(
  tx: SqlClient,
  rail: string,
  date: string,
  references: readonly string[],
): Promise<LedgerPayout[]> {
  const rows = await tx.query<{ reference: string; amount: bigint; business_date: Date }>(sql`
    SELECT reference, -amount AS amount, business_date FROM postings
     WHERE type = 'payout.confirmed' AND account = ${Account.bankCash(rail)}
       AND (business_date = ${date}::date OR reference = ANY(${[...references]}::text[]))`);
  return rows.map((r) => ({ reference: r.reference, amount: r.amount, confirmedOn: day(r.business_date) as string }));
}

/** Rail fees the books hold for the rail, booked on `date` or named in `feeRefs`. */
export async function ledgerRailFees(
  tx: SqlClient,
  rail: string,
  date: string,
  feeRefs: readonly string[],
): Promise<LedgerRailFee[]> {
  const rows = await tx.query<{ fee_ref: string; amount: bigint }>(sql`
    SELECT memo->>'feeRef' AS fee_ref, (memo->>'amount')::bigint AS amount FROM journal_entries
     WHERE type = 'rail.fee' AND merchant_id IS NULL AND memo->>'rail' = ${rail}
       AND (business_date = ${date}::date OR memo->>'feeRef' = ANY(${[...feeRefs]}::text[]))`);
  return rows.map((r) => ({ feeRef: r.fee_ref, amount: r.amount }));
}

/** The day's run, created or updated. */
export async function upsertRun(
  tx: SqlClient,
  r: { date: string; acquirer: string; rail: string; summary: object; by: string },
): Promise<string> {
  const rows = await tx.query<{ id: string }>(sql`
    INSERT INTO recon_runs (id, date, acquirer, rail, summary, ran_by)
    VALUES (${randomUUID()}::uuid, ${r.date}::date, ${r.acquirer}, ${r.rail}, ${JSON.stringify(r.summary)}::jsonb, ${r.by})
    ON CONFLICT (date, acquirer, rail) DO UPDATE SET summary = EXCLUDED.summary, ran_at = now(), ran_by = EXCLUDED.ran_by
    RETURNING id::text`);
  return rows[0].id;
}

/** The run's breaks as found now: new ones added, found again updated (owner and resolution kept), gone ones cleared. */
export async function saveBreaks(tx: SqlClient, runId: string, breaks: readonly Break[]): Promise<void> {
  for (const b of breaks)
    await tx.execute(sql`
      INSERT INTO recon_breaks (id, run_id, key, code, side, subject, reference, batch_id, expected_amount, actual_amount,
                                expected_date, actual_date, suspense, detail)
      VALUES (${randomUUID()}::uuid, ${runId}::uuid, ${b.key}, ${b.code}, ${b.side}, ${b.subject}, ${b.reference}, ${b.batchId},
              ${b.expectedAmount?.toString() ?? null}::bigint, ${b.actualAmount?.toString() ?? null}::bigint,
              ${b.expectedDate}::date, ${b.actualDate}::date, ${b.suspense.toString()}::bigint, ${b.detail})
      ON CONFLICT (run_id, key) DO UPDATE SET
        expected_amount = EXCLUDED.expected_amount, actual_amount = EXCLUDED.actual_amount,
        expected_date = EXCLUDED.expected_date, actual_date = EXCLUDED.actual_date, suspense = EXCLUDED.suspense,
        detail = EXCLUDED.detail, last_seen_at = now(),
        status = CASE WHEN recon_breaks.status = 'cleared' THEN 'open' ELSE recon_breaks.status END`);
  await tx.execute(sql`
    UPDATE recon_breaks SET status = 'cleared'
     WHERE run_id = ${runId}::uuid AND status = 'open' AND NOT (key = ANY(${breaks.map((b) => b.key)}::text[]))`);
}

/** Records a command the run books; false when it was booked before (nothing to write again). */
export async function recordBooking(
  tx: SqlClient,
  b: { commandId: string; runId: string; kind: string; reference: string; command: object },
): Promise<boolean> {
  const n = await tx.execute(sql`
    INSERT INTO recon_bookings (command_id, run_id, kind, reference, command)
    VALUES (${b.commandId}, ${b.runId}::uuid, ${b.kind}, ${b.reference}, ${JSON.stringify(b.command)}::jsonb)
    ON CONFLICT (command_id) DO NOTHING`);
  return n === 1;
}
