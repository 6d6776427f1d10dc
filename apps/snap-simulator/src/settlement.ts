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
 * settlement date a day later; `unknown-rrn`: a line (paid) of a payment nobody made.
 */
export const SETTLE_MODES = ['normal', 'missing-rrn', 'short', 'duplicate', 'date-moved', 'unknown-rrn'] as const;
export type SettleMode = (typeof SETTLE_MODES)[number];

export interface SettleRequest {
  /** The Jakarta day whose payments are settled */
  date: string;
  mode: SettleMode;
  /** The payment the fault is planted on (default: the day's first) */
  rrn?: string;
  /** For `short`, in sen (default 1,000 Rupiah, at most the batch's net) */
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
  async settle(r: SettleRequest): Promise<{ batches: { batchId: string; credited: string }[]; lines: number }> {
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
      if (r.mode !== 'normal' && r.mode !== 'unknown-rrn' && !target)
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
      const answer: { batchId: string; credited: string }[] = [];
      for (const [n, b] of batches.entries()) {
        const net = b.lines.reduce((s, l) => s + l.net, 0n);
        const short = r.mode === 'short' && n === 0 ? minBig(r.shortBy ?? 100_000n, net) : 0n;
        const credited = net - short;
        await c.query(
          `INSERT INTO settlements (batch_id, transaction_date, settlement_date, mode, net, credited) VALUES ($1,$2,$3,$4,$5,$6)`,
          [b.batchId, r.date, settlementDate, r.mode, net.toString(), credited.toString()],
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
        answer.push({ batchId: b.batchId, credited: credited.toString() });
      }
      // A payment left out stays out: it is marked settled, in no batch, so a later settle does not report it either.
      if (r.mode === 'missing-rrn' && target)
        await c.query(
          `INSERT INTO settlement_lines (batch_id, line_no, rrn, reference_no, partner_reference_no, transaction_date,
             settlement_date, gross, mdr, net, omitted) VALUES ('', 0, $1, $2, $3, $4, $5, 0, 0, 0, true)`,
          [target.rrn, target.reference_no, target.partner_reference_no, r.date, settlementDate],
        );
      return { batches: answer, lines: batches.reduce((s, b) => s + b.lines.length, 0) };
    });
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

  /** The report over SNAP: signed and answered like any service (not one ASPI defines: see the README). */
  async report(call: Call): Promise<Outcome> {
    const merchantId = text(call.body, 'merchantId', 64);
    if (merchantId !== this.config.acquirer.merchantId)
      throw new SnapError(400, '01', 'Invalid Field Format merchantId');
    const date = text(call.body, 'transactionDate', 10, DAY);
    const lines = await this.lines(date);
    const sum = (f: (l: SettlementLine) => bigint) => money(lines.reduce((s, l) => s + f(l), 0n));
    return {
      http: 200,
      caseCode: '00',
      message: 'Successful',
      body: {
        merchantId,
        transactionDate: date,
        totalEntries: {
          numberOfEntries: String(lines.length),
          grossAmount: sum((l) => l.gross),
          mdrAmount: sum((l) => l.mdr),
          netAmount: sum((l) => l.net),
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
        additionalInfo: {},
      },
    };
  }

  /** The same report as the CSV file an acquirer without the API sends (layout in docs/operations/reconciliation.md). */
  async csv(date: string): Promise<string> {
    const rupiah = (sen: bigint) => money(sen).value;
    const rows = (await this.lines(date)).map((l) =>
      [
        l.rrn,
        l.referenceNo,
        l.transactionDate,
        l.settlementDate,
        l.batchId,
        rupiah(l.gross),
        rupiah(l.mdr),
        rupiah(l.net),
      ].join(','),
    );
    return ['rrn,reference_no,transaction_date,settlement_date,batch_id,gross,mdr,net', ...rows].join('\n') + '\n';
  }
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
