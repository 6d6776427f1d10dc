import type { PoolClient } from 'pg';
import { SnapError } from './auth';
import type { Call, Outcome } from './bank';
import type { SimulatorConfig } from './config';
import type { Store } from './store';
import { money, referenceNo, text } from './values';

/**
 * How a day is settled (a control, never SNAP): `normal`, or one planted fault, so that a
 * reconciliation can be shown to find exactly it. `missing-rrn`: a payment left out of the
 * report and of the money; `short`: the bank credit of the (first) batch is `shortBy` less than
 * its lines' nets; `duplicate`: a payment's line twice, and paid twice; `date-moved`: a line's
 * settlement date a day later; `unknown-rrn`: a line (paid) of a payment nobody made;
 * `unknown-refund`: a refund line (netted) of a refund nobody asked for, on a payment of the day
 * (`shortBy`, default 1,000 Rupiah); `refund-differs`: the first refund netted (or the one of
 * `rrn`'s payment) reported and netted `shortBy` more than was refunded.
 *
 * Every settlement nets the refunds the acquirer made (SNAP 78) on or before the day settled that
 * no batch netted yet: each from the first batch of the day whose net still covers it (what none
 * covers waits for a later settlement), reported as refund lines of that batch.
 */
export const SETTLE_MODES = [
  'normal',
  'missing-rrn',
  'short',
  'duplicate',
  'date-moved',
  'unknown-rrn',
  'unknown-refund',
  'refund-differs',
] as const;
export type SettleMode = (typeof SETTLE_MODES)[number];

export interface SettleRequest {
  /** The Jakarta day whose payments are settled */
  date: string;
  mode: SettleMode;
  /** The payment the fault is planted on (default: the day's first) */
  rrn?: string;
  /** For `short`, `unknown-refund` and `refund-differs`, in sen (default 1,000 Rupiah; a shortfall at most the batch's net) */
  shortBy?: bigint;
  /** Default: `date` plus SNAP_SIM_SETTLEMENT_LAG_DAYS */
  settlementDate?: string;
  /** Lines per batch (default: one batch for the day) */
  batchSize?: number;
}

export interface SettlementLine {
  lineNo: number;
  rrn: string;
  referenceNo: string;
  partnerReferenceNo: string;
  transactionDate: string;
  settlementDate: string;
  batchId: string;
  gross: bigint;
  mdr: bigint;
  net: bigint;
}

/** A refund the acquirer netted from a batch: it paid the payer back and took it from what it settled. */
export interface SettlementRefund {
  lineNo: number;
  /** The refunded payment's RRN and references */
  rrn: string;
  referenceNo: string;
  partnerReferenceNo: string;
  refundNo: string;
  partnerRefundNo: string;
  amount: bigint;
  /** The Jakarta day the acquirer refunded */
  refundDate: string;
  settlementDate: string;
  batchId: string;
}

interface RefundRow {
  partner_refund_no: string;
  refund_no: string;
  amount: string;
  refund_date: string;
  rrn: string;
  reference_no: string;
  partner_reference_no: string;
}

interface PaidRow {
  reference_no: string;
  partner_reference_no: string;
  amount: string;
  rrn: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const JAKARTA_MS = 7 * 3_600_000;

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The acquirer's settlements: it pays a day's QRIS payments (less its MDR) into the source account, in batches, and reports them. */
export class Settlements {
  constructor(
    private readonly config: SimulatorConfig,
    private readonly store: Store,
  ) {}

  /** MDR of a payment: `SNAP_SIM_MDR_BASIS_POINTS` of the gross, rounded half up to the sen. */
  mdrOf(gross: bigint): bigint {
    return (gross * BigInt(this.config.settlement.mdrBasisPoints) + 5_000n) / 10_000n;
  }

  /**
   * Settles the day's paid codes not settled before: the report's lines (with the fault planted),
   * one credit per batch into the source account. Settling a day again settles only what is new.
   */
  async settle(
    r: SettleRequest,
  ): Promise<{ batches: { batchId: string; credited: string; refunds: string }[]; lines: number; refunds: number }> {
    if (!DAY.test(r.date)) throw new SnapError(400, '01', 'date: YYYY-MM-DD');
    const from = new Date(Date.parse(`${r.date}T00:00:00Z`) - JAKARTA_MS);
    const to = new Date(from.getTime() + 86_400_000);
    const settlementDate = r.settlementDate ?? addDays(r.date, this.config.settlement.lagDays);
    return this.store.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`settle:${r.date}`]);
      const { rows } = await c.query<PaidRow>(
        `SELECT reference_no, partner_reference_no, amount::text, rrn FROM qr_codes q
         WHERE state = 'paid' AND paid_at >= $1 AND paid_at < $2
           AND NOT EXISTS (SELECT 1 FROM settlement_lines l WHERE l.reference_no = q.reference_no)
         ORDER BY paid_at, reference_no`,
        [from, to],
      );
      const target = rows.find((p) => p.rrn === r.rrn) ?? rows[0];
      if (r.mode !== 'normal' && r.mode !== 'unknown-rrn' && r.mode !== 'refund-differs' && !target)
        throw new SnapError(404, '01', `no payment of ${r.date} to plant ${r.mode} on`);
      const size = Math.max(1, r.batchSize ?? (rows.length || 1));
      const batches: { batchId: string; lines: SettlementLine[] }[] = [];
      let lineNo = 0;
      const lineOf = (p: PaidRow, batchId: string): SettlementLine => {
        const gross = BigInt(p.amount);
        const mdr = this.mdrOf(gross);
        const moved = r.mode === 'date-moved' && p === target;
        return {
          lineNo: ++lineNo,
          rrn: p.rrn,
          referenceNo: p.reference_no,
          partnerReferenceNo: p.partner_reference_no,
          transactionDate: r.date,
          settlementDate: moved ? addDays(settlementDate, 1) : settlementDate,
          batchId,
          gross,
          mdr,
          net: gross - mdr,
        };
      };
      for (let i = 0; i < rows.length; i += size) {
        const batchId = referenceNo('STL');
        const lines: SettlementLine[] = [];
        for (const p of rows.slice(i, i + size)) {
          // The fault is planted once on `target`; the payment left out is still marked settled below.
          if (r.mode === 'missing-rrn' && p === target) continue;
          lines.push(lineOf(p, batchId));
          if (r.mode === 'duplicate' && p === target) lines.push({ ...lines[lines.length - 1], lineNo: ++lineNo });
        }
        batches.push({ batchId, lines });
      }
      if (r.mode === 'unknown-rrn') {
        if (batches.length === 0) batches.push({ batchId: referenceNo('STL'), lines: [] });
        const fake = { reference_no: referenceNo('QR'), partner_reference_no: 'UNKNOWN', amount: '1500000', rrn: '' };
        fake.rrn = `9${fake.reference_no.replace(/\D/g, '').slice(-11).padStart(11, '0')}`;
        batches[0].lines.push(lineOf(fake, batches[0].batchId));
      }
      const netted = await this.netRefunds(c, { ...r, settlementDate }, batches, target);
      const answer: { batchId: string; credited: string; refunds: string }[] = [];
      for (const [n, b] of batches.entries()) {
        const refunds = netted.filter((f) => f.batchId === b.batchId).reduce((sum, f) => sum + f.amount, 0n);
        const net = b.lines.reduce((sum, l) => sum + l.net, 0n) - refunds;
        const short = r.mode === 'short' && n === 0 ? minBig(r.shortBy ?? 100_000n, net) : 0n;
        const credited = net - short;
        await c.query(
          `INSERT INTO settlements (batch_id, transaction_date, settlement_date, mode, net, credited, refunds)
           VALUES ($1,$2,$3,$4,$5,$6,$7)`,
          [b.batchId, r.date, settlementDate, r.mode, net.toString(), credited.toString(), refunds.toString()],
        );
        for (const l of b.lines)
          await c.query(
            `INSERT INTO settlement_lines (batch_id, line_no, rrn, reference_no, partner_reference_no, transaction_date,
               settlement_date, gross, mdr, net) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
            [
              b.batchId,
              l.lineNo,
              l.rrn,
              l.referenceNo,
              l.partnerReferenceNo,
              l.transactionDate,
              l.settlementDate,
              l.gross.toString(),
              l.mdr.toString(),
              l.net.toString(),
            ],
          );
        if (credited > 0n) {
          const { rows: acc } = await c.query<{ balance: string }>(
            'UPDATE source_accounts SET balance = balance + $2 WHERE account_no = $1 RETURNING balance',
            [this.config.source.accountNo, credited.toString()],
          );
          await c.query(
            `INSERT INTO entries (account_no, partner_reference_no, kind, amount, balance_after, remark)
             VALUES ($1, $2, 'CREDIT', $3, $4, $5)`,
            [
              this.config.source.accountNo,
              b.batchId,
              credited.toString(),
              acc[0].balance,
              `QRIS SETTLEMENT ${b.batchId}`,
            ],
          );
        }
        answer.push({ batchId: b.batchId, credited: credited.toString(), refunds: refunds.toString() });
      }
      // A payment left out stays out: it is marked settled, in no batch, so a later settle does not report it either.
      if (r.mode === 'missing-rrn' && target)
        await c.query(
          `INSERT INTO settlement_lines (batch_id, line_no, rrn, reference_no, partner_reference_no, transaction_date,
             settlement_date, gross, mdr, net, omitted) VALUES ('', 0, $1, $2, $3, $4, $5, 0, 0, 0, true)`,
          [target.rrn, target.reference_no, target.partner_reference_no, r.date, settlementDate],
        );
      return { batches: answer, lines: batches.reduce((s, b) => s + b.lines.length, 0), refunds: netted.length };
    });
  }

  /**
   * The refunds made on or before the day settled that no batch netted yet, each netted from the
   * first batch whose net still covers it (its net stays above zero), the planted refund fault
   * with them; written as the batches' refund lines.
   */
  private async netRefunds(
    c: PoolClient,
    r: SettleRequest,
    batches: { batchId: string; lines: SettlementLine[] }[],
    target: PaidRow | undefined,
  ): Promise<SettlementRefund[]> {
    const { rows } = await c.query<RefundRow>(
      `SELECT f.partner_refund_no, f.refund_no, f.amount::text, left(f.refund_time, 10) AS refund_date,
              q.rrn, q.reference_no, q.partner_reference_no
         FROM refunds f JOIN qr_codes q USING (reference_no)
        WHERE left(f.refund_time, 10) <= $1
          AND NOT EXISTS (SELECT 1 FROM settlement_refunds s WHERE s.partner_refund_no = f.partner_refund_no)
        ORDER BY f.refund_time, f.partner_refund_no`,
      [r.date],
    );
    const extra = r.shortBy ?? 100_000n;
    const wanted = rows.map((f) => ({ ...f, reported: BigInt(f.amount), planted: false }));
    if (r.mode === 'refund-differs') {
      const victim = wanted.find((f) => f.rrn === r.rrn) ?? wanted[0];
      if (!victim) throw new SnapError(404, '01', `no refund made by ${r.date} to plant refund-differs on`);
      victim.reported += extra;
    }
    if (r.mode === 'unknown-refund') {
      const on = target as PaidRow;
      const partnerRefundNo = `UNKNOWN-${referenceNo('RF')}`;
      wanted.unshift({
        partner_refund_no: partnerRefundNo,
        refund_no: referenceNo('RFD'),
        amount: '0',
        refund_date: r.date,
        rrn: on.rrn,
        reference_no: on.reference_no,
        partner_reference_no: on.partner_reference_no,
        reported: extra,
        planted: true,
      });
    }
    const left = new Map(batches.map((b) => [b.batchId, b.lines.reduce((s, l) => s + l.net, 0n)]));
    const netted: SettlementRefund[] = [];
    let lineNo = 0;
    for (const f of wanted) {
      const batch = batches.find((b) => (left.get(b.batchId) as bigint) > f.reported);
      if (!batch) {
        if (f.planted || f.reported !== BigInt(f.amount))
          throw new SnapError(404, '01', `no batch of ${r.date} covers the planted refund of ${f.reported}`);
        continue; // waits for a settlement whose batch covers it
      }
      left.set(batch.batchId, (left.get(batch.batchId) as bigint) - f.reported);
      const line: SettlementRefund = {
        lineNo: ++lineNo,
        rrn: f.rrn,
        referenceNo: f.reference_no,
        partnerReferenceNo: f.partner_reference_no,
        refundNo: f.refund_no,
        partnerRefundNo: f.partner_refund_no,
        amount: f.reported,
        refundDate: f.refund_date,
        settlementDate: r.settlementDate as string,
        batchId: batch.batchId,
      };
      netted.push(line);
      await c.query(
        `INSERT INTO settlement_refunds (partner_refund_no, batch_id, line_no, refund_no, rrn, reference_no,
           partner_reference_no, amount, refund_date, settlement_date, planted) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
        [
          line.partnerRefundNo,
          line.batchId,
          line.lineNo,
          line.refundNo,
          line.rrn,
          line.referenceNo,
          line.partnerReferenceNo,
          line.amount.toString(),
          line.refundDate,
          line.settlementDate,
          f.planted,
        ],
      );
    }
    return netted;
  }

  /** The report of a day's payments: every line of every batch settled for it, in line order. */
  async lines(date: string): Promise<SettlementLine[]> {
    const { rows } = await this.store.pool.query<{
      line_no: number;
      rrn: string;
      reference_no: string;
      partner_reference_no: string;
      transaction_date: string;
      settlement_date: string;
      batch_id: string;
      gross: string;
      mdr: string;
      net: string;
    }>(
      `SELECT l.* FROM settlement_lines l JOIN settlements s USING (batch_id)
       WHERE s.transaction_date = $1 AND NOT l.omitted ORDER BY s.created_at, l.batch_id, l.line_no`,
      [date],
    );
    return rows.map((l, i) => ({
      lineNo: i + 1,
      rrn: l.rrn,
      referenceNo: l.reference_no,
      partnerReferenceNo: l.partner_reference_no,
      transactionDate: l.transaction_date,
      settlementDate: l.settlement_date,
      batchId: l.batch_id,
      gross: BigInt(l.gross),
      mdr: BigInt(l.mdr),
      net: BigInt(l.net),
    }));
  }

  /** The refunds netted from the batches settled for a day's payments, in line order. */
  async refunds(date: string): Promise<SettlementRefund[]> {
    const { rows } = await this.store.pool.query<{
      rrn: string;
      reference_no: string;
      partner_reference_no: string;
      refund_no: string;
      partner_refund_no: string;
      amount: string;
      refund_date: string;
      settlement_date: string;
      batch_id: string;
    }>(
      `SELECT f.* FROM settlement_refunds f JOIN settlements s USING (batch_id)
       WHERE s.transaction_date = $1 ORDER BY s.created_at, f.batch_id, f.line_no`,
      [date],
    );
    return rows.map((f, i) => ({
      lineNo: i + 1,
      rrn: f.rrn,
      referenceNo: f.reference_no,
      partnerReferenceNo: f.partner_reference_no,
      refundNo: f.refund_no,
      partnerRefundNo: f.partner_refund_no,
      amount: BigInt(f.amount),
      refundDate: f.refund_date,
      settlementDate: f.settlement_date,
      batchId: f.batch_id,
    }));
  }

  /** The report over SNAP: signed and answered like any service (not one ASPI defines: see the README). */
  async report(call: Call): Promise<Outcome> {
    const merchantId = text(call.body, 'merchantId', 64);
    if (merchantId !== this.config.acquirer.merchantId)
      throw new SnapError(400, '01', 'Invalid Field Format merchantId');
    const date = text(call.body, 'transactionDate', 10, DAY);
    const lines = await this.lines(date);
    const refunds = await this.refunds(date);
    const total = (f: (l: SettlementLine) => bigint) => lines.reduce((s, l) => s + f(l), 0n);
    const refunded = refunds.reduce((s, f) => s + f.amount, 0n);
    return {
      http: 200,
      caseCode: '00',
      message: 'Successful',
      body: {
        merchantId,
        transactionDate: date,
        totalEntries: {
          numberOfEntries: String(lines.length),
          grossAmount: money(total((l) => l.gross)),
          mdrAmount: money(total((l) => l.mdr)),
          netAmount: money(total((l) => l.net)),
          numberOfRefunds: String(refunds.length),
          refundAmount: money(refunded),
          settledAmount: money(total((l) => l.net) - refunded),
        },
        detailData: lines.map((l) => ({
          lineNo: String(l.lineNo),
          rrn: l.rrn,
          referenceNo: l.referenceNo,
          partnerReferenceNo: l.partnerReferenceNo,
          transactionDate: l.transactionDate,
          settlementDate: l.settlementDate,
          batchId: l.batchId,
          grossAmount: money(l.gross),
          mdrAmount: money(l.mdr),
          netAmount: money(l.net),
        })),
        refundData: refunds.map((f) => ({
          lineNo: String(f.lineNo),
          rrn: f.rrn,
          originalReferenceNo: f.referenceNo,
          originalPartnerReferenceNo: f.partnerReferenceNo,
          refundNo: f.refundNo,
          partnerRefundNo: f.partnerRefundNo,
          refundAmount: money(f.amount),
          refundDate: f.refundDate,
          settlementDate: f.settlementDate,
          batchId: f.batchId,
        })),
        additionalInfo: {},
      },
    };
  }

  /**
   * The same report as the CSV file an acquirer without the API sends (layout in
   * docs/operations/reconciliation.md): a `record` column, `payment` lines then `refund` lines.
   */
  async csv(date: string): Promise<string> {
    const rupiah = (sen: bigint) => money(sen).value;
    const payments = (await this.lines(date)).map((l) =>
      [
        'payment',
        l.rrn,
        l.referenceNo,
        l.transactionDate,
        l.settlementDate,
        l.batchId,
        rupiah(l.gross),
        rupiah(l.mdr),
        rupiah(l.net),
        '',
        '',
        '',
        '',
      ].join(','),
    );
    const refunds = (await this.refunds(date)).map((f) =>
      [
        'refund',
        f.rrn,
        f.referenceNo,
        '',
        f.settlementDate,
        f.batchId,
        '',
        '',
        '',
        f.refundNo,
        f.partnerRefundNo,
        f.refundDate,
        rupiah(f.amount),
      ].join(','),
    );
    return [SETTLEMENT_CSV_HEADER, ...payments, ...refunds].join('\n') + '\n';
  }
}

const SETTLEMENT_CSV_HEADER =
  'record,rrn,reference_no,transaction_date,settlement_date,batch_id,gross,mdr,net,refund_no,partner_refund_no,refund_date,refund_amount';

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
