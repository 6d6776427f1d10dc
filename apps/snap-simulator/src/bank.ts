import type { PoolClient } from 'pg';
import { SnapError } from './auth';
import type { SimulatorConfig } from './config';
import type { Store } from './store';
import {
  amountOf,
  holderName,
  jakartaTime,
  money,
  optionalText,
  referenceNo,
  type Scenario,
  scenarioOf,
  text,
} from './values';

/** What a service answers: HTTP status + case code (the route adds its service code), and the body. */
export interface Outcome {
  http: number;
  caseCode: string;
  message: string;
  body?: Record<string, unknown>;
  /** Executed, but the answer is never sent: the socket is held, then destroyed */
  hang?: true;
}

export interface Call {
  body: Record<string, unknown>;
  externalId: string;
  service: string;
  now: Date;
}

interface TransferRow {
  partner_reference_no: string;
  reference_no: string;
  service: string;
  external_id: string;
  transaction_date: string | null;
  beneficiary_bank_code: string | null;
  beneficiary_account_no: string;
  beneficiary_account_name: string | null;
  source_account_no: string;
  amount: string;
  scenario: Scenario;
  state: 'success' | 'pending' | 'failed';
  resolves_to: 'success' | 'failed' | null;
  resolve_at: Date | null;
  response_code: string;
  status_queries: number;
}

interface EntryRow {
  partner_reference_no: string;
  kind: string;
  amount: string;
  balance_after: string;
  remark: string;
  created_at: Date;
}

const ACCOUNT = /^\d{6,34}$/;
const BANK = /^[A-Z0-9]{3,11}$/;

/** A statement's planted paging faults: page n answered with page n-1, or with a cursor later than page n-1's. */
export const STATEMENT_FAULTS = ['repeat-page', 'backwards-page'] as const;
export type StatementFault = (typeof STATEMENT_FAULTS)[number];

/** additionalInfo.pageNumber / pageSize: a positive whole number, as a string (SNAP's way) or a number. */
function pageField(info: Record<string, unknown>, field: string): number | undefined {
  const v = info[field];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    throw new SnapError(400, '01', `Invalid Field Format additionalInfo.${field}`);
  return n;
}

/** The bank: the source account, account inquiries, transfers and their status (services 11, 14-18, 36). */
export class Bank {
  private paging: { pageSize: number; fault: StatementFault | null };

  constructor(
    private readonly config: SimulatorConfig,
    private readonly store: Store,
  ) {
    this.paging = { pageSize: config.statementPageSize, fault: null };
  }

  /** 15 (internal: an account at this bank) and 16 (external). */
  accountInquiry(call: Call, internal: boolean): Outcome {
    const bankCode = internal ? this.config.source.bankCode : text(call.body, 'beneficiaryBankCode', 11, BANK);
    const accountNo = text(call.body, 'beneficiaryAccountNo', 34, ACCOUNT);
    const scenario = scenarioOf(accountNo);
    if (scenario === 'unknown_account') return { http: 404, caseCode: '11', message: 'Invalid Account' };
    if (scenario === 'blocked_account') return { http: 403, caseCode: '18', message: 'Inactive Account' };
    return {
      http: 200,
      caseCode: '00',
      message: 'Successful',
      body: {
        referenceNo: referenceNo('INQ'),
        partnerReferenceNo: optionalText(call.body, 'partnerReferenceNo', 64),
        beneficiaryAccountName: holderName(bankCode, accountNo),
        beneficiaryAccountNo: accountNo,
        beneficiaryBankCode: bankCode,
        ...(internal ? { beneficiaryAccountStatus: 'ACTIVE', beneficiaryAccountType: 'S' } : {}),
        ...(internal ? {} : { beneficiaryBankName: `BANK ${bankCode}` }),
        currency: 'IDR',
      },
    };
  }

  /** 17 (intrabank) and 18 (interbank): deduped on partnerReferenceNo, executed at most once. */
  async transfer(call: Call, interbank: boolean): Promise<Outcome> {
    const b = call.body;
    const partnerReferenceNo = text(b, 'partnerReferenceNo', 64);
    const amount = amountOf('amount', b.amount);
    const accountNo = text(b, 'beneficiaryAccountNo', 34, ACCOUNT);
    const bankCode = interbank ? text(b, 'beneficiaryBankCode', 11, BANK) : null;
    const accountName = interbank ? text(b, 'beneficiaryAccountName', 100) : null;
    const sourceAccountNo = text(b, 'sourceAccountNo', 19);
    const transactionDate = text(b, 'transactionDate', 25);
    if (Number.isNaN(Date.parse(transactionDate)))
      throw new SnapError(400, '01', 'Invalid Field Format transactionDate');
    if (sourceAccountNo !== this.config.source.accountNo)
      throw new SnapError(403, '15', 'Transaction Not Permitted. Unknown source account');
    if (amount <= 0n) throw new SnapError(404, '13', 'Invalid Amount');
    const scenario = scenarioOf(accountNo);

    return this.store.tx(async (c) => {
      const existing = await this.lockTransfer(c, partnerReferenceNo);
      if (existing) return this.repeat(c, existing, { amount, accountNo, bankCode, service: call.service }, call.now);
      if (scenario === 'unknown_account') return { http: 404, caseCode: '11', message: 'Invalid Account' };
      if (scenario === 'blocked_account') return { http: 403, caseCode: '18', message: 'Inactive Account' };
      if (scenario === 'do_not_honor') return { http: 403, caseCode: '05', message: 'Do Not Honor' };
      if (scenario === 'insufficient_funds') return { http: 403, caseCode: '14', message: 'Insufficient Funds' };
      if (scenario === 'rate_limited_twice') {
        const { rows } = await c.query<{ attempts: number }>(
          `INSERT INTO refused_attempts (partner_reference_no, attempts) VALUES ($1, 1)
           ON CONFLICT (partner_reference_no) DO UPDATE SET attempts = refused_attempts.attempts + 1 RETURNING attempts`,
          [partnerReferenceNo],
        );
        if (rows[0].attempts <= 2) return { http: 429, caseCode: '00', message: 'Too Many Requests' };
      }
      const pending = scenario === 'in_progress_then_failed' || scenario === 'in_progress_then_success';
      const reference = referenceNo('TRF');
      const answer: Outcome = pending
        ? { http: 202, caseCode: '00', message: 'Request In Progress' }
        : scenario === 'executed_then_500'
          ? { http: 500, caseCode: '01', message: 'Internal Server Error' }
          : scenario === 'executed_then_504'
            ? { http: 504, caseCode: '00', message: 'Timeout' }
            : { http: 200, caseCode: '00', message: 'Successful' };
      const responseCode = `${answer.http}${call.service}${answer.caseCode}`;
      const debited = await c.query<{ balance: string }>(
        'UPDATE source_accounts SET balance = balance - $2 WHERE account_no = $1 AND balance >= $2 RETURNING balance',
        [sourceAccountNo, amount.toString()],
      );
      if (debited.rowCount === 0) return { http: 403, caseCode: '14', message: 'Insufficient Funds' };
      await c.query(
        `INSERT INTO transfers (partner_reference_no, reference_no, service, external_id, transaction_date,
           beneficiary_bank_code, beneficiary_account_no, beneficiary_account_name, source_account_no, amount,
           scenario, state, resolves_to, resolve_at, response_code)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)`,
        [
          partnerReferenceNo,
          reference,
          call.service,
          call.externalId,
          transactionDate,
          bankCode,
          accountNo,
          accountName,
          sourceAccountNo,
          amount.toString(),
          scenario,
          pending ? 'pending' : 'success',
          pending ? (scenario === 'in_progress_then_success' ? 'success' : 'failed') : null,
          pending ? new Date(call.now.getTime() + this.config.delayMs) : null,
          responseCode,
        ],
      );
      await c.query(
        `INSERT INTO entries (account_no, partner_reference_no, kind, amount, balance_after, remark)
         VALUES ($1, $2, 'DEBIT', $3, $4, $5)`,
        [sourceAccountNo, partnerReferenceNo, amount.toString(), debited.rows[0].balance, `TRF ${accountNo}`],
      );
      if (interbank && this.config.transferFee > 0n) await this.chargeFee(c, sourceAccountNo, partnerReferenceNo);
      const body = {
        referenceNo: reference,
        partnerReferenceNo,
        amount: money(amount),
        beneficiaryAccountNo: accountNo,
        ...(bankCode ? { beneficiaryBankCode: bankCode } : {}),
        sourceAccountNo,
        transactionDate,
      };
      return { ...answer, body, ...(scenario === 'executed_no_answer' ? { hang: true as const } : {}) };
    });
  }

  /** 36: the transaction's latest status, by any identifier the caller has. */
  async status(call: Call): Promise<Outcome> {
    const b = call.body;
    const serviceCode = text(b, 'serviceCode', 2, /^\d{2}$/);
    const byRef = optionalText(b, 'originalPartnerReferenceNo', 64);
    const byProvider = optionalText(b, 'originalReferenceNo', 64);
    const byExternal = optionalText(b, 'originalExternalId', 36);
    if (!byRef && !byProvider && !byExternal)
      throw new SnapError(400, '02', 'Invalid Mandatory Field originalPartnerReferenceNo');
    return this.store.tx(async (c) => {
      const { rows } = await c.query<TransferRow>(
        `SELECT * FROM transfers WHERE service = $1 AND (partner_reference_no = $2 OR reference_no = $3 OR external_id = $4)
         ORDER BY created_at LIMIT 1 FOR UPDATE`,
        [serviceCode, byRef ?? null, byProvider ?? null, byExternal ?? null],
      );
      let t = rows[0];
      if (!t) return { http: 404, caseCode: '01', message: 'Transaction Not Found' };
      await c.query('UPDATE transfers SET status_queries = status_queries + 1 WHERE partner_reference_no = $1', [
        t.partner_reference_no,
      ]);
      if (t.scenario === 'status_lags' && t.status_queries < 2)
        return { http: 404, caseCode: '01', message: 'Transaction Not Found' };
      t = await this.resolve(c, t, call.now);
      const latest = t.state === 'success' ? '00' : t.state === 'pending' ? '03' : '06';
      return {
        http: 200,
        caseCode: '00',
        message: 'Successful',
        body: {
          originalReferenceNo: t.reference_no,
          originalPartnerReferenceNo: t.partner_reference_no,
          originalExternalId: t.external_id,
          serviceCode: t.service,
          transactionDate: t.transaction_date,
          amount: money(BigInt(t.amount)),
          beneficiaryAccountNo: t.beneficiary_account_no,
          beneficiaryBankCode: t.beneficiary_bank_code,
          sourceAccountNo: t.source_account_no,
          referenceNumber: t.reference_no,
          previousResponseCode: t.response_code,
          latestTransactionStatus: latest,
          transactionStatusDesc: { '00': 'Success', '03': 'Pending', '06': 'Failed' }[latest],
        },
      };
    });
  }

  /** 11: the source account's balance. */
  async balance(call: Call): Promise<Outcome> {
    const accountNo = text(call.body, 'accountNo', 19);
    if (accountNo !== this.config.source.accountNo) return { http: 404, caseCode: '11', message: 'Invalid Account' };
    await this.resolveDue(call.now);
    const { rows } = await this.store.pool.query<{ balance: string }>(
      'SELECT balance FROM source_accounts WHERE account_no = $1',
      [accountNo],
    );
    const balance = money(BigInt(rows[0].balance));
    return {
      http: 200,
      caseCode: '00',
      message: 'Successful',
      body: {
        referenceNo: referenceNo('BAL'),
        partnerReferenceNo: optionalText(call.body, 'partnerReferenceNo', 64),
        accountNo,
        name: 'PT SIMULATED SOURCE',
        accountInfos: [
          {
            balanceType: 'Cash',
            amount: balance,
            floatAmount: money(0n),
            holdAmount: money(0n),
            availableBalance: balance,
            ledgerBalance: balance,
            currentMultilateralLimit: money(0n),
            registrationStatusCode: '0001',
            status: '0001',
          },
        ],
      },
    };
  }

  /**
   * 14: the source account's entries, newest first, a window of at most a month, a page at a time.
   * ASPI gives the answer's `hasMore` and `lastRecordDateTime` but no request field for the next
   * page; this bank takes `additionalInfo.pageNumber` (1-based) and `additionalInfo.pageSize` (at most
   * its own page size) over the same window, and echoes both with `totalPages`. The totals are the
   * whole window's on every page.
   */
  async statement(call: Call): Promise<Outcome> {
    const accountNo = text(call.body, 'accountNo', 19);
    const from = Date.parse(text(call.body, 'fromDateTime', 25));
    const to = Date.parse(text(call.body, 'toDateTime', 25));
    if (Number.isNaN(from) || Number.isNaN(to) || to < from)
      throw new SnapError(400, '01', 'Invalid Field Format toDateTime');
    if (to - from > 31 * 86_400_000) throw new SnapError(400, '01', 'Invalid Field Format: window over one month');
    const info = (call.body.additionalInfo ?? {}) as Record<string, unknown>;
    if (typeof info !== 'object' || Array.isArray(info))
      throw new SnapError(400, '01', 'Invalid Field Format additionalInfo');
    const pageNumber = pageField(info, 'pageNumber') ?? 1;
    const pageSize = Math.min(pageField(info, 'pageSize') ?? this.paging.pageSize, this.paging.pageSize);
    if (accountNo !== this.config.source.accountNo) return { http: 404, caseCode: '11', message: 'Invalid Account' };
    await this.resolveDue(call.now);
    const rows = await this.entriesBetween(new Date(from), new Date(to));
    const totalPages = Math.max(1, Math.ceil(rows.length / pageSize));
    if (pageNumber > totalPages) throw new SnapError(400, '01', 'Invalid Field Format additionalInfo.pageNumber');
    const fault = pageNumber > 1 ? this.paging.fault : null;
    // A planted fault: the page before served again, or a cursor later than the page before's.
    const served = fault === 'repeat-page' ? pageNumber - 1 : pageNumber;
    const page = rows.slice((served - 1) * pageSize, served * pageSize);
    const last = page.at(-1)?.created_at;
    const lastRecordDateTime =
      fault === 'backwards-page'
        ? jakartaTime(new Date(rows[0].created_at.getTime() + 3_600_000))
        : last && jakartaTime(last);
    const sum = (kind: string) => rows.filter((r) => r.kind === kind).reduce((s, r) => s + BigInt(r.amount), 0n);
    return {
      http: 200,
      caseCode: '00',
      message: 'Successful',
      body: {
        referenceNo: referenceNo('STM'),
        totalCreditEntries: {
          numberOfEntries: String(rows.filter((r) => r.kind === 'CREDIT').length),
          amount: money(sum('CREDIT')),
        },
        totalDebitEntries: {
          numberOfEntries: String(rows.filter((r) => r.kind === 'DEBIT').length),
          amount: money(sum('DEBIT')),
        },
        hasMore: pageNumber < totalPages ? 'Y' : 'N',
        ...(lastRecordDateTime ? { lastRecordDateTime } : {}),
        detailData: page.map((r) => ({
          amount: money(BigInt(r.amount)),
          transactionDate: jakartaTime(r.created_at),
          remark: r.remark,
          transactionId: r.partner_reference_no,
          type: r.kind,
          detailBalance: { endAmount: [money(BigInt(r.balance_after))] },
        })),
        additionalInfo: { pageNumber: String(pageNumber), pageSize: String(pageSize), totalPages: String(totalPages) },
      },
    };
  }

  /** The statement's page size (the configured one unless changed here) and a planted paging fault, for tests. */
  setStatementPaging(paging: { pageSize?: number; fault?: StatementFault | null }): {
    pageSize: number;
    fault: StatementFault | null;
  } {
    this.paging = {
      pageSize: paging.pageSize ?? this.paging.pageSize,
      fault: paging.fault === undefined ? this.paging.fault : paging.fault,
    };
    return this.paging;
  }

  /** The source account's entries in [from, to], newest first. */
  async entriesBetween(from: Date, to: Date): Promise<EntryRow[]> {
    const { rows } = await this.store.pool.query<EntryRow>(
      `SELECT partner_reference_no, kind, amount, balance_after, remark, created_at FROM entries
       WHERE account_no = $1 AND created_at BETWEEN $2 AND $3 ORDER BY id DESC`,
      [this.config.source.accountNo, from, to],
    );
    return rows;
  }

  /** A Jakarta day of the statement as the CSV a bank without SNAP 14 gives (layout in docs/operations/reconciliation.md). */
  async statementCsv(date: string, now: Date): Promise<string> {
    await this.resolveDue(now);
    const from = new Date(Date.parse(`${date}T00:00:00Z`) - 7 * 3_600_000);
    const rows = (await this.entriesBetween(from, new Date(from.getTime() + 86_400_000 - 1))).reverse();
    const lines = rows.map((r) =>
      [jakartaTime(r.created_at), r.partner_reference_no, r.kind, money(BigInt(r.amount)).value, `"${r.remark}"`].join(
        ',',
      ),
    );
    return ['transaction_date,transaction_id,type,amount,remark', ...lines].join('\n') + '\n';
  }

  /** Every executed transfer: how many times each reference was executed (a debit), and its state now. */
  async executions(now: Date): Promise<Record<string, unknown>[]> {
    await this.resolveDue(now);
    const { rows } = await this.store.pool.query(
      `SELECT e.partner_reference_no AS "partnerReferenceNo", count(*)::int AS executions,
              t.state, t.beneficiary_account_no AS "beneficiaryAccountNo", t.amount::text AS amount,
              (SELECT count(*)::int FROM entries r WHERE r.partner_reference_no = e.partner_reference_no AND r.kind = 'CREDIT') AS reversals
       FROM entries e JOIN transfers t USING (partner_reference_no)
       WHERE e.kind = 'DEBIT' GROUP BY e.partner_reference_no, t.state, t.beneficiary_account_no, t.amount
       ORDER BY min(e.id)`,
    );
    return rows;
  }

  async setBalance(balance: bigint): Promise<void> {
    await this.store.pool.query('UPDATE source_accounts SET balance = $2 WHERE account_no = $1', [
      this.config.source.accountNo,
      balance.toString(),
    ]);
  }

  /** The bank's charge for an interbank transfer: a statement line of its own (skipped when the balance cannot bear it). */
  private async chargeFee(c: PoolClient, sourceAccountNo: string, partnerReferenceNo: string): Promise<void> {
    const fee = this.config.transferFee.toString();
    const { rows } = await c.query<{ balance: string }>(
      'UPDATE source_accounts SET balance = balance - $2 WHERE account_no = $1 AND balance >= $2 RETURNING balance',
      [sourceAccountNo, fee],
    );
    if (rows.length === 0) return;
    await c.query(
      `INSERT INTO entries (account_no, partner_reference_no, kind, amount, balance_after, remark)
       VALUES ($1, $2, 'DEBIT', $3, $4, $5)`,
      [sourceAccountNo, `FEE-${partnerReferenceNo}`, fee, rows[0].balance, `FEE TRF ${partnerReferenceNo}`],
    );
  }

  private async lockTransfer(c: PoolClient, partnerReferenceNo: string): Promise<TransferRow | undefined> {
    // Serialises concurrent first submissions of one reference: the loser sees the winner's row.
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [partnerReferenceNo]);
    const { rows } = await c.query<TransferRow>('SELECT * FROM transfers WHERE partner_reference_no = $1 FOR UPDATE', [
      partnerReferenceNo,
    ]);
    return rows[0];
  }

  /** The same partnerReferenceNo again: 404xx18 if anything differs, else 409xx01 once it succeeded, or where it stands. */
  private async repeat(
    c: PoolClient,
    t: TransferRow,
    again: { amount: bigint; accountNo: string; bankCode: string | null; service: string },
    now: Date,
  ): Promise<Outcome> {
    if (
      BigInt(t.amount) !== again.amount ||
      t.beneficiary_account_no !== again.accountNo ||
      t.beneficiary_bank_code !== again.bankCode ||
      t.service !== again.service
    )
      return { http: 404, caseCode: '18', message: 'Inconsistent Request' };
    const current = await this.resolve(c, t, now);
    const body = { referenceNo: current.reference_no, partnerReferenceNo: current.partner_reference_no };
    if (current.state === 'success')
      return { http: 409, caseCode: '01', message: 'Duplicate partnerReferenceNo', body };
    if (current.state === 'pending') return { http: 202, caseCode: '00', message: 'Request In Progress', body };
    return { http: 403, caseCode: '05', message: 'Do Not Honor', body };
  }

  /** A pending transfer whose time has come becomes what it was always going to be; a failure gives the money back. */
  private async resolve(c: PoolClient, t: TransferRow, now: Date): Promise<TransferRow> {
    if (t.state !== 'pending' || !t.resolve_at || t.resolve_at > now) return t;
    const state = t.resolves_to ?? 'success';
    await c.query('UPDATE transfers SET state = $2 WHERE partner_reference_no = $1', [t.partner_reference_no, state]);
    if (state === 'failed') {
      const { rows } = await c.query<{ balance: string }>(
        'UPDATE source_accounts SET balance = balance + $2 WHERE account_no = $1 RETURNING balance',
        [t.source_account_no, t.amount],
      );
      await c.query(
        `INSERT INTO entries (account_no, partner_reference_no, kind, amount, balance_after, remark)
         VALUES ($1, $2, 'CREDIT', $3, $4, 'REVERSAL')`,
        [t.source_account_no, t.partner_reference_no, t.amount, rows[0].balance],
      );
    }
    return { ...t, state };
  }

  private async resolveDue(now: Date): Promise<void> {
    const { rows } = await this.store.pool.query<{ partner_reference_no: string }>(
      `SELECT partner_reference_no FROM transfers WHERE state = 'pending' AND resolve_at <= $1`,
      [now],
    );
    for (const r of rows)
      await this.store.tx(async (c) => {
        const t = await this.lockTransfer(c, r.partner_reference_no);
        if (t) await this.resolve(c, t, now);
      });
  }
}
