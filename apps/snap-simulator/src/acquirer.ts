import { createHash, createSign, randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import { SnapError } from './auth';
import type { Call, Outcome } from './bank';
import type { SimulatorConfig } from './config';
import type { Store } from './store';
import { amountOf, jakartaTime, money, optionalText, qrisContent, referenceNo, text } from './values';

interface QrRow {
  reference_no: string;
  partner_reference_no: string;
  merchant_id: string;
  amount: string;
  qr_content: string;
  state: 'pending' | 'paid' | 'failed';
  valid_until: Date;
  paid_at: Date | null;
  issuer: string | null;
  rrn: string | null;
  refunded: string;
}

export type PayMode = 'normal' | 'duplicate' | 'bad-signature' | 'late' | 'never';

export interface NotificationAttempt {
  attempt: number;
  goodSignature: boolean;
  httpStatus: number | null;
  responseCode: string | null;
  error: string | null;
}

/** The QRIS acquirer: generate (47), query (51), refund (78), and the payment notification (52) it sends. */
export class Acquirer {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly config: SimulatorConfig,
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  async generate(call: Call): Promise<Outcome> {
    const b = call.body;
    const partnerReferenceNo = text(b, 'partnerReferenceNo', 64);
    const amount = amountOf('amount', b.amount);
    const merchantId = text(b, 'merchantId', 64);
    if (merchantId !== this.config.acquirer.merchantId)
      throw new SnapError(400, '01', 'Invalid Field Format merchantId');
    const validity = optionalText(b, 'validityPeriod', 25);
    const validUntil = validity ? new Date(Date.parse(validity)) : new Date(call.now.getTime() + 30 * 60_000);
    if (Number.isNaN(validUntil.getTime()) || validUntil <= call.now)
      throw new SnapError(400, '01', 'Invalid Field Format validityPeriod');
    if (amount <= 0n) throw new SnapError(404, '13', 'Invalid Amount');
    const info = (b.additionalInfo ?? {}) as { merchantName?: unknown };
    const merchantName = typeof info.merchantName === 'string' ? info.merchantName : 'SNAP SIMULATOR MERCHANT';
    const reference = referenceNo('QR');
    const content = qrisContent({ merchantId, merchantName, amount, reference: partnerReferenceNo });
    const { rows } = await this.store.pool.query<QrRow>(
      `INSERT INTO qr_codes (reference_no, partner_reference_no, merchant_id, amount, qr_content, state, valid_until)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6)
       ON CONFLICT (partner_reference_no) DO UPDATE SET partner_reference_no = EXCLUDED.partner_reference_no
       RETURNING *`,
      [reference, partnerReferenceNo, merchantId, amount.toString(), content, validUntil],
    );
    const qr = rows[0];
    // The same reference again is the same code (a retried generate); with another amount it is a conflict.
    if (BigInt(qr.amount) !== amount) return { http: 404, caseCode: '18', message: 'Inconsistent Request' };
    return {
      http: 200,
      caseCode: '00',
      message: 'Successful',
      body: {
        referenceNo: qr.reference_no,
        partnerReferenceNo: qr.partner_reference_no,
        qrContent: qr.qr_content,
        merchantName,
        additionalInfo: { validityPeriod: jakartaTime(qr.valid_until) },
      },
    };
  }

  async query(call: Call): Promise<Outcome> {
    const b = call.body;
    text(b, 'serviceCode', 2, /^47$/);
    const qr = await this.find(
      optionalText(b, 'originalPartnerReferenceNo', 64),
      optionalText(b, 'originalReferenceNo', 64),
    );
    if (!qr) return { http: 404, caseCode: '01', message: 'Transaction Not Found' };
    const expired = qr.state === 'pending' && qr.valid_until <= call.now;
    const latest = qr.state === 'paid' ? '00' : qr.state === 'failed' ? '06' : expired ? '05' : '03';
    return {
      http: 200,
      caseCode: '00',
      message: 'Successful',
      body: {
        originalReferenceNo: qr.reference_no,
        originalPartnerReferenceNo: qr.partner_reference_no,
        serviceCode: '47',
        latestTransactionStatus: latest,
        transactionStatusDesc: { '00': 'Success', '03': 'Pending', '05': 'Cancelled (expired)', '06': 'Failed' }[
          latest
        ],
        ...(qr.paid_at ? { paidTime: jakartaTime(qr.paid_at) } : {}),
        amount: money(BigInt(qr.amount)),
        additionalInfo: { ...(qr.issuer ? { issuer: qr.issuer } : {}), ...(qr.rrn ? { rrn: qr.rrn } : {}) },
      },
    };
  }

  async refund(call: Call): Promise<Outcome> {
    const b = call.body;
    const partnerRefundNo = text(b, 'partnerRefundNo', 64);
    const amount = amountOf('refundAmount', b.refundAmount);
    const originalPartnerReferenceNo = text(b, 'originalPartnerReferenceNo', 64);
    return this.store.tx(async (c) => {
      const { rows } = await c.query<QrRow>('SELECT * FROM qr_codes WHERE partner_reference_no = $1 FOR UPDATE', [
        originalPartnerReferenceNo,
      ]);
      const qr = rows[0];
      if (!qr) return { http: 404, caseCode: '01', message: 'Transaction Not Found' };
      const prior = await c.query<{ amount: string; refund_no: string; refund_time: string; reference_no: string }>(
        'SELECT * FROM refunds WHERE partner_refund_no = $1',
        [partnerRefundNo],
      );
      const answer = (refundNo: string, refundTime: string): Outcome => ({
        http: 200,
        caseCode: '00',
        message: 'Successful',
        body: {
          originalPartnerReferenceNo,
          originalReferenceNo: qr.reference_no,
          refundNo,
          partnerRefundNo,
          refundAmount: money(amount),
          refundTime,
        },
      });
      if (prior.rows[0]) {
        const p = prior.rows[0];
        if (BigInt(p.amount) !== amount || p.reference_no !== qr.reference_no)
          return { http: 404, caseCode: '18', message: 'Inconsistent Request' };
        return answer(p.refund_no, p.refund_time);
      }
      if (qr.state !== 'paid') return { http: 405, caseCode: '01', message: 'Requested Operation Is Not Allowed' };
      if (BigInt(qr.refunded) + amount > BigInt(qr.amount))
        return { http: 404, caseCode: '13', message: 'Invalid Amount' };
      const refundNo = referenceNo('RFD');
      const refundTime = jakartaTime(call.now);
      await c.query('UPDATE qr_codes SET refunded = refunded + $2 WHERE reference_no = $1', [
        qr.reference_no,
        amount.toString(),
      ]);
      await c.query(
        'INSERT INTO refunds (partner_refund_no, reference_no, amount, refund_no, refund_time) VALUES ($1,$2,$3,$4,$5)',
        [partnerRefundNo, qr.reference_no, amount.toString(), refundNo, refundTime],
      );
      return answer(refundNo, refundTime);
    });
  }

  /**
   * A payer pays a code (a control call, never SNAP): the code is marked paid (or failed), then the
   * notification goes out as `mode` says. The first attempt's answer is awaited and returned.
   */
  async pay(
    ref: { referenceNo?: string; partnerReferenceNo?: string },
    opts: { mode: PayMode; status: 'paid' | 'failed'; issuer?: string; now: Date },
  ): Promise<{ qr: QrRow; first: NotificationAttempt | null } | null> {
    const rrn = String(randomInt(0, 1e12)).padStart(12, '0');
    const { rows } = await this.store.pool.query<QrRow>(
      `UPDATE qr_codes SET state = $3, paid_at = $4, issuer = $5, rrn = $6
       WHERE (reference_no = $1 OR partner_reference_no = $2) AND state = 'pending' AND valid_until > $4 RETURNING *`,
      [ref.referenceNo ?? null, ref.partnerReferenceNo ?? null, opts.status, opts.now, opts.issuer ?? 'SIMBANK', rrn],
    );
    const qr = rows[0] ?? (await this.find(ref.partnerReferenceNo, ref.referenceNo));
    if (!qr) return null;
    if (rows.length === 0)
      throw new SnapError(409, '00', `the code is ${qr.state === 'pending' ? 'expired' : qr.state} already`);
    switch (opts.mode) {
      case 'never':
        return { qr, first: null };
      case 'late':
        this.later(this.config.delayMs, () => this.notifyWithRetries(qr, opts.mode, true));
        return { qr, first: null };
      case 'bad-signature':
        return { qr, first: await this.notify(qr, opts.mode, 1, false) };
      case 'duplicate': {
        const first = await this.notifyWithRetries(qr, opts.mode, true);
        await this.notify(qr, opts.mode, 2, true);
        return { qr, first };
      }
      case 'normal':
        return { qr, first: await this.notifyWithRetries(qr, opts.mode, true) };
    }
  }

  async notifications(): Promise<Record<string, unknown>[]> {
    const { rows } = await this.store.pool.query(
      `SELECT reference_no AS "referenceNo", mode, attempt, good_signature AS "goodSignature", http_status AS "httpStatus",
              response_code AS "responseCode", error, sent_at AS "sentAt" FROM notifications ORDER BY id`,
    );
    return rows;
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
  }

  private later(ms: number, work: () => Promise<unknown>): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      work().catch((err: Error) => this.logger.warn({ err: err.message }, 'notification failed'));
    }, ms);
    this.timers.add(t);
  }

  /** The first attempt now; an answer other than 2005200 is tried again twice, after 1 s and 3 s. */
  private async notifyWithRetries(qr: QrRow, mode: PayMode, good: boolean): Promise<NotificationAttempt> {
    const first = await this.notify(qr, mode, 1, good);
    if (first.responseCode !== '2005200') {
      let attempt = 1;
      const retry = async (): Promise<void> => {
        attempt++;
        const r = await this.notify(qr, mode, attempt, good);
        if (r.responseCode !== '2005200' && attempt < 3) this.later(attempt * 1500, retry);
      };
      this.later(1000, retry);
    }
    return first;
  }

  /** One notification (52), signed SHA256withRSA with the simulator's key over the notify URL's path, or deliberately not. */
  private async notify(
    qr: QrRow,
    mode: PayMode,
    attempt: number,
    goodSignature: boolean,
  ): Promise<NotificationAttempt> {
    const url = this.config.acquirer.notifyUrl;
    if (!url) throw new SnapError(400, '00', 'SNAP_SIM_NOTIFY_URL is not set: nowhere to notify');
    const body = Buffer.from(
      JSON.stringify({
        originalReferenceNo: qr.reference_no,
        originalPartnerReferenceNo: qr.partner_reference_no,
        latestTransactionStatus: qr.state === 'paid' ? '00' : '06',
        transactionStatusDesc: qr.state === 'paid' ? 'Success' : 'Failed',
        amount: money(BigInt(qr.amount)),
        additionalInfo: {
          paidTime: qr.paid_at ? jakartaTime(qr.paid_at) : undefined,
          issuer: qr.issuer,
          rrn: qr.rrn,
        },
      }),
      'utf8',
    );
    const timestamp = jakartaTime(new Date());
    const path = new URL(url).pathname;
    const digest = createHash('sha256').update(body).digest('hex');
    let signature = createSign('sha256')
      .update(`POST:${path}:${digest}:${timestamp}`)
      .sign(this.config.privateKeyPem, 'base64');
    if (!goodSignature)
      signature = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const result: NotificationAttempt = { attempt, goodSignature, httpStatus: null, responseCode: null, error: null };
    let responseBody: string | null = null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-TIMESTAMP': timestamp,
          'X-SIGNATURE': signature,
          'X-PARTNER-ID': this.config.acquirer.partnerId,
          'X-EXTERNAL-ID': `${Date.now()}${String(randomInt(0, 1e9)).padStart(9, '0')}`,
          'CHANNEL-ID': this.config.client.channelId,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      result.httpStatus = res.status;
      responseBody = (await res.text()).slice(0, 2000);
      try {
        const code = (JSON.parse(responseBody) as { responseCode?: unknown }).responseCode;
        result.responseCode = typeof code === 'string' ? code : null;
      } catch {
        result.responseCode = null;
      }
    } catch (err) {
      result.error = (err as Error).message;
    }
    await this.store.pool.query(
      `INSERT INTO notifications (reference_no, mode, attempt, good_signature, http_status, response_code, response_body, error)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
      [
        qr.reference_no,
        mode,
        attempt,
        goodSignature,
        result.httpStatus,
        result.responseCode,
        responseBody,
        result.error,
      ],
    );
    return result;
  }

  private async find(partnerReferenceNo?: string, referenceNo?: string): Promise<QrRow | undefined> {
    if (!partnerReferenceNo && !referenceNo)
      throw new SnapError(400, '02', 'Invalid Mandatory Field originalPartnerReferenceNo');
    const { rows } = await this.store.pool.query<QrRow>(
      'SELECT * FROM qr_codes WHERE partner_reference_no = $1 OR reference_no = $2 LIMIT 1',
      [partnerReferenceNo ?? null, referenceNo ?? null],
    );
    return rows[0];
  }
}
