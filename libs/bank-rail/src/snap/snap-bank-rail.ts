import { findBank, PayoutFailureCode } from '@pay/domain';
import { sql, sqlClient, type SqlClient } from '@pay/persistence';
import {
  FINAL_FAILURES,
  type FinalFailure,
  fromSnapAmount,
  parseSnapTimestamp,
  type SnapClient,
  type SnapCallRecord,
  type SnapResult,
  snapTimestamp,
  toSnapAmount,
  transactionState,
} from '@pay/snap';
import type { Pool } from 'pg';
import {
  type AccountLookup,
  type BankRail,
  RailTimeoutError,
  type TransferRequest,
  type TransferStatus,
  UnknownBankError,
} from '../bank-rail';
import { type SnapCredentials, snapClientFor, type SnapRailConfig } from './snap.config';

/** The merchant's failure code of each final refusal of the reference's table. */
const FAILURE_CODES: Record<FinalFailure, PayoutFailureCode> = {
  expired: PayoutFailureCode.RejectedByBank,
  amount_limit: PayoutFailureCode.AmountLimit,
  suspected_fraud: PayoutFailureCode.RejectedByBank,
  do_not_honor: PayoutFailureCode.RejectedByBank,
  dormant_account: PayoutFailureCode.AccountInactive,
  insufficient_funds: PayoutFailureCode.SourceInsufficientFunds,
  not_permitted: PayoutFailureCode.RejectedByBank,
  inactive_account: PayoutFailureCode.AccountInactive,
  invalid_account: PayoutFailureCode.AccountNotFound,
  invalid_routing: PayoutFailureCode.BankUnreachable,
  invalid_amount: PayoutFailureCode.RejectedByBank,
};

/** BI's bank codes for our bank codes; e-wallets differ between providers (SNAP_BANK_CODES_FILE). */
export const SNAP_BANK_CODES: Readonly<Record<string, string>> = {
  BCA: '014',
  BNI: '009',
  BRI: '002',
  MANDIRI: '008',
  PERMATA: '013',
  CIMB: '022',
  BSI: '451',
  DANAMON: '011',
  BTN: '200',
  OCBC: '028',
  DANA: 'DANA',
  OVO: 'OVO',
  GOPAY: 'GOPAY',
  SHOPEEPAY: 'SHOPEEPAY',
  LINKAJA: 'LINKAJA',
};

/** The most pages of one statement (14) followed: a day beyond it is refused, never cut short. */
export const STATEMENT_MAX_PAGES = 200;

/** A day's statement, every page of it in one body, or why there is none. */
export type StatementAnswer =
  { kind: 'statement'; body: Record<string, unknown>; pages: number } | { kind: 'unavailable'; reason: string };

/** Longest wait between two status inquiries of one transfer. */
const MAX_POLL_MS = 600_000;

export interface SnapRailHooks {
  /** Every SNAP call (metrics per provider and service) */
  onCall?: (record: SnapCallRecord) => void;
  /** A transfer whose outcome is not known (an UNKNOWN answer or a status still pending) */
  onUnknown?: (service: string, reason: string) => void;
  clock?: () => Date;
}

interface AttemptRow {
  service: string;
  external_id: string;
  sent_at: Date;
  reference_no: string | null;
  not_executed: boolean;
  outcome: string | null;
}

/**
 * A bank rail over SNAP (reference §4.1-4.3, §5). Our disbursement id is the partnerReferenceNo of
 * every attempt; each attempt (its X-EXTERNAL-ID) is stored in rail_attempts before it leaves.
 * An answer we did not get is UNKNOWN, never failed: the transfer is then resolved by status
 * inquiry (36), and sent again only under the same partnerReferenceNo, when the bank still does not
 * know it after SNAP_NOT_FOUND_WINDOW_MS, so the bank's dedupe holds: never a second transfer.
 */
export class SnapBankRail implements BankRail {
  readonly live: boolean;
  readonly provider = 'snap';
  /** The books' name of the rail: its provider's */
  readonly name = this.provider;
  private readonly client: SnapClient;
  private readonly db: SqlClient;
  private readonly bankCodes: Record<string, string>;
  private readonly clock: () => Date;

  constructor(
    pool: Pool,
    private readonly config: SnapRailConfig,
    credentials: SnapCredentials,
    live: boolean,
    private readonly hooks: SnapRailHooks = {},
  ) {
    this.live = live;
    this.db = sqlClient(pool);
    this.clock = hooks.clock ?? (() => new Date());
    this.bankCodes = { ...SNAP_BANK_CODES, ...credentials.bankCodes };
    this.client = snapClientFor(this.provider, config, credentials, {
      clock: this.clock,
      onAttempt: (a) => this.recordAttempt(a.service, a.externalId, a.body),
      onCall: hooks.onCall,
    });
  }

  /** 15 for an account at our own bank, else 16. Read-only: an unknown outcome is simply an error to retry. */
  async lookupAccount(bankCode: string, accountNo: string): Promise<AccountLookup> {
    const code = this.snapBankCode(bankCode);
    const internal = code === this.config.sourceBankCode;
    const result = internal
      ? await this.client.call('accountInquiryInternal', { beneficiaryAccountNo: accountNo })
      : await this.client.call('accountInquiryExternal', {
          beneficiaryBankCode: code,
          beneficiaryAccountNo: accountNo,
        });
    if (result.kind !== 'answer') throw new RailTimeoutError(`account inquiry: ${describe(result)}`);
    const c = result.class;
    if (c.kind === 'success') return { kind: 'found', accountName: String(result.body.beneficiaryAccountName ?? '') };
    if (c.kind === 'final_failure' && (c.reason === 'invalid_account' || c.reason === 'invalid_routing'))
      return { kind: 'not_found' };
    if (c.kind === 'final_failure' && (c.reason === 'inactive_account' || c.reason === 'dormant_account'))
      return { kind: 'blocked' };
    // Rate limited, cut-off, our credentials refused, a field refused: no answer about the account,
    // which the merchant hears as the bank being unavailable (try again), never as a 500.
    throw new RailTimeoutError(`account inquiry refused: ${describe(result)}`);
  }

  /** 17 to our own bank, 18 elsewhere, with our disbursement id as partnerReferenceNo. */
  async submitTransfer(request: TransferRequest): Promise<TransferStatus> {
    const code = this.snapBankCode(request.bankCode);
    const intrabank = code === this.config.sourceBankCode;
    const ref = request.idempotencyKey;
    const first = await this.firstAttempt(ref);
    const body = {
      partnerReferenceNo: ref,
      amount: toSnapAmount(request.amount),
      ...(intrabank ? {} : { beneficiaryAccountName: request.accountName.slice(0, 100) }),
      beneficiaryAccountNo: request.accountNo,
      ...(intrabank ? {} : { beneficiaryBankCode: code }),
      sourceAccountNo: this.config.sourceAccountNo,
      // The same on every attempt of one transfer: a resend must be the same request, or the bank says 404xx18.
      transactionDate: first ? snapTimestamp(first.sent_at) : snapTimestamp(this.clock()),
      customerReference: ref.replace(/-/g, '').slice(0, 30),
      additionalInfo: {},
    };
    const result = await this.client.call(intrabank ? 'transferIntrabank' : 'transferInterbank', body);
    await this.recordAnswer(result);
    if (result.kind === 'not_sent') return this.processing(null, 0);
    if (result.kind === 'unknown') return this.unknown(ref, result.reason, null);
    const c = result.class;
    const reference = typeof result.body.referenceNo === 'string' ? result.body.referenceNo : null;
    switch (c.kind) {
      case 'success':
        return { state: 'completed', reference: reference ?? ref, completedAt: this.clock() };
      case 'in_progress':
        return this.processing(reference, 1);
      case 'final_failure':
        return this.failed(reference, `${FINAL_FAILURES[c.reason]} (${result.code.code})`, FAILURE_CODES[c.reason]);
      case 'not_processed':
        // Refused before processing (a field the bank rejects): no money moved, and resending the same request cannot succeed.
        return this.failed(
          reference,
          `Refused by the bank: ${String(result.body.responseMessage ?? '')} (${result.code.code})`,
          PayoutFailureCode.RejectedByBank,
        );
      // The reference was used before: the original went through or is going; the status says which.
      case 'duplicate_success':
      case 'inconsistent':
      case 'external_id_conflict':
      case 'not_found':
      case 'unknown':
        return (await this.transferStatus(ref)) ?? this.processing(reference, 1);
      // Not processed: cut-off, limits, rate limits, our token or keys. Nothing moved; sent again later.
      case 'retry_later':
      case 'auth_token':
      case 'auth_fatal':
        return this.processing(reference, 2);
    }
  }

  /**
   * Where a transfer stands, asked with every identifier we have (36). null when the bank never
   * received it: no attempt reached it, or it still does not know it after the not-found window.
   */
  async transferStatus(idempotencyKey: string): Promise<TransferStatus | null> {
    const attempts = await this.attempts(idempotencyKey);
    const transfers = attempts.filter((a) => a.service === '17' || a.service === '18');
    const reached = transfers.filter((a) => !a.not_executed);
    if (reached.length === 0) return null;
    const latest = reached[reached.length - 1];
    const reference = transfers.map((a) => a.reference_no).findLast((r) => r !== null) ?? null;
    const polls = attempts.filter((a) => a.service === '36').length;
    const result = await this.client.call('transferStatus', {
      originalPartnerReferenceNo: idempotencyKey,
      ...(reference ? { originalReferenceNo: reference } : {}),
      originalExternalId: latest.external_id,
      serviceCode: latest.service,
      transactionDate: snapTimestamp(transfers[0].sent_at),
      additionalInfo: {},
    });
    await this.recordAnswer(result);
    if (result.kind !== 'answer') return this.unknown(idempotencyKey, `status: ${describe(result)}`, reference);
    const notFound = () =>
      this.clock().getTime() - transfers[0].sent_at.getTime() > this.config.notFoundWindowMs
        ? null
        : this.processing(reference, polls + 1);
    if (result.class.kind === 'not_found') return notFound();
    if (result.class.kind !== 'success') return this.unknown(idempotencyKey, `status: ${describe(result)}`, reference);
    const bankReference =
      [result.body.originalReferenceNo, result.body.referenceNumber, reference].find(
        (r): r is string => typeof r === 'string' && r.length > 0,
      ) ?? idempotencyKey;
    switch (transactionState(result.body.latestTransactionStatus)) {
      case 'success':
        return { state: 'completed', reference: bankReference, completedAt: this.clock() };
      case 'failed':
      case 'cancelled':
      case 'expired':
      case 'refunded':
        return this.failed(
          bankReference,
          `The bank reports the transfer failed: ${String(result.body.transactionStatusDesc ?? '')} (${String(result.body.latestTransactionStatus)})`.replace(
            ':  (',
            ' (',
          ),
          PayoutFailureCode.BankFailed,
        );
      case 'not_found':
        return notFound();
      case 'pending':
      case 'unknown':
        return this.processing(bankReference, polls + 1);
    }
  }

  /**
   * Our source account's available balance at the bank (11), in sen; null when the bank did not
   * answer or did not say. What payouts are paid from: a finance team's check, and an operator's
   * before a bank refuses transfers for insufficient funds (403xx14).
   */
  async sourceBalance(): Promise<bigint | null> {
    const result = await this.client.call('balanceInquiry', {
      accountNo: this.config.sourceAccountNo,
      balanceTypes: ['Cash'],
      additionalInfo: {},
    });
    if (result.kind !== 'answer' || result.class.kind !== 'success') return null;
    const infos = result.body.accountInfos;
    if (!Array.isArray(infos) || infos.length === 0) return null;
    const info = infos[0] as Record<string, unknown>;
    return fromSnapAmount(info.availableBalance ?? info.amount);
  }

  /**
   * Our source account's statement (14) of a Jakarta day, `[00:00, 24:00)` WIB, for reconciliation:
   * every page of it (`additionalInfo.pageNumber`, the window unchanged, while the bank says
   * `hasMore: Y`, at most `maxPages`, default STATEMENT_MAX_PAGES), as one answer whose `detailData` holds every page's
   * lines in the bank's order; or why there is none. A page that repeats the one before, whose cursor
   * (`lastRecordDateTime`) goes back the way the pages came, that is empty while more is promised, or
   * pages whose lines do not add up to the bank's totals of the window, are refused whole: nothing of
   * such a statement is given. Read-only: simply asked again.
   */
  async statement(date: string, options: { pageSize?: number; maxPages?: number } = {}): Promise<StatementAnswer> {
    const from = new Date(Date.parse(`${date}T00:00:00+07:00`));
    const maxPages = options.maxPages ?? STATEMENT_MAX_PAGES;
    const pages: Record<string, unknown>[] = [];
    for (let page = 1; page <= maxPages; page++) {
      const result = await this.client.call('bankStatement', {
        // No partnerReferenceNo: it would file the call among the transfers' attempts (rail_attempts).
        accountNo: this.config.sourceAccountNo,
        fromDateTime: snapTimestamp(from),
        toDateTime: snapTimestamp(new Date(from.getTime() + 86_399_000)),
        additionalInfo: {
          pageNumber: String(page),
          ...(options.pageSize ? { pageSize: String(options.pageSize) } : {}),
        },
      });
      const where = page > 1 ? ` (page ${page})` : '';
      if (result.kind !== 'answer' || result.class.kind !== 'success')
        return { kind: 'unavailable', reason: `${describe(result)}${where}` };
      const problem = pageProblem(pages, result.body);
      if (problem) return { kind: 'unavailable', reason: `refused: ${problem}` };
      pages.push(result.body);
      if (result.body.hasMore !== 'Y') {
        const totals = totalsProblem(pages);
        if (totals) return { kind: 'unavailable', reason: `refused: ${totals}` };
        const detailData = pages.flatMap((p) => p.detailData as unknown[]);
        return { kind: 'statement', body: { ...pages[0], hasMore: 'N', detailData }, pages: pages.length };
      }
    }
    return {
      kind: 'unavailable',
      reason: `refused: the bank still has more lines after ${maxPages} pages`,
    };
  }

  async ready(): Promise<void> {
    const problem = await this.client.credentialsProblem();
    if (problem) throw new Error(problem);
  }

  close(): void {
    this.client.close();
  }

  private snapBankCode(bankCode: string): string {
    const code = this.bankCodes[bankCode];
    if (!code || !findBank(bankCode)) throw new UnknownBankError(bankCode);
    return code;
  }

  private failed(reference: string | null, reason: string, code: PayoutFailureCode): TransferStatus {
    return { state: 'failed', reference, reason, code, failedAt: this.clock() };
  }

  private unknown(ref: string, reason: string, reference: string | null): TransferStatus {
    this.hooks.onUnknown?.(ref, reason);
    return this.processing(reference, 1);
  }

  /** Asked again after SNAP_STATUS_POLL_MS, doubling with each inquiry already made, up to 10 minutes. */
  private processing(reference: string | null, polls: number): TransferStatus {
    const wait = polls === 0 ? this.config.statusPollMs / 4 : this.config.statusPollMs * 2 ** Math.min(polls - 1, 10);
    return { state: 'processing', reference, checkAfterMs: Math.min(wait, MAX_POLL_MS) };
  }

  private async firstAttempt(ref: string): Promise<AttemptRow | undefined> {
    return (await this.attempts(ref)).find((a) => a.service === '17' || a.service === '18');
  }

  private attempts(ref: string): Promise<AttemptRow[]> {
    return this.db.query<AttemptRow>(sql`
      SELECT service, external_id, sent_at, reference_no, not_executed, outcome FROM rail_attempts
      WHERE partner_reference_no = ${ref} AND provider = ${this.provider} ORDER BY id`);
  }

  /** Before the request leaves: the attempt, under the reference it is about. */
  private async recordAttempt(service: string, externalId: string, body: Buffer): Promise<void> {
    const parsed = JSON.parse(body.toString('utf8')) as {
      partnerReferenceNo?: string;
      originalPartnerReferenceNo?: string;
    };
    const ref = parsed.partnerReferenceNo ?? parsed.originalPartnerReferenceNo;
    if (!ref) return;
    const code = SERVICE_CODES[service] ?? service;
    await this.db.query(sql`
      INSERT INTO rail_attempts (provider, service, partner_reference_no, external_id, sent_at)
      VALUES (${this.provider}, ${code}, ${ref}, ${externalId}, ${this.clock()})`);
  }

  /** What came back. A request refused before processing (or never delivered) moved no money. */
  private async recordAnswer(result: SnapResult): Promise<void> {
    if (!result.externalId) return;
    const answer = result.kind === 'answer' ? result : null;
    const notExecuted =
      result.kind === 'not_sent' ||
      (answer !== null &&
        ['not_processed', 'auth_token', 'auth_fatal', 'retry_later', 'final_failure'].includes(answer.class.kind));
    const reference = answer && typeof answer.body.referenceNo === 'string' ? answer.body.referenceNo : null;
    const code =
      result.kind === 'answer' ? result.code.code : result.kind === 'unknown' ? (result.code?.code ?? null) : null;
    await this.db.query(sql`
      UPDATE rail_attempts SET outcome = ${result.kind}, response_code = ${code}, reference_no = ${reference},
        not_executed = ${notExecuted}, answered_at = ${this.clock()}
      WHERE provider = ${this.provider} AND external_id = ${result.externalId}`);
  }
}

const SERVICE_CODES: Record<string, string> = {
  transferIntrabank: '17',
  transferInterbank: '18',
  transferStatus: '36',
  accountInquiryInternal: '15',
  accountInquiryExternal: '16',
};

function describe(result: SnapResult): string {
  if (result.kind === 'answer') return `${result.code.code} ${String(result.body.responseMessage ?? '')}`.trim();
  if (result.kind === 'unknown') return `${result.reason}: ${result.detail}`;
  return `not sent: ${result.reason}`;
}

const lineTime = (line: unknown): number | null => {
  const at = (line as { transactionDate?: unknown } | null)?.transactionDate;
  return typeof at === 'string' ? (parseSnapTimestamp(at)?.getTime() ?? null) : null;
};

/** The cursor of a page: its `lastRecordDateTime`, else its last line's time. */
function cursorOf(body: Record<string, unknown>): number | null {
  const at = body.lastRecordDateTime;
  if (typeof at === 'string') return parseSnapTimestamp(at)?.getTime() ?? null;
  return lineTime((body.detailData as unknown[]).at(-1));
}

/**
 * Why the next page cannot follow the ones before: not a list, empty while more is promised, the
 * page before again, or a cursor going back the way the pages came (newest first, as ASPI orders
 * statements, unless the first page runs oldest first). Equal cursors are allowed: a second's
 * lines may span pages.
 */
function pageProblem(before: Record<string, unknown>[], body: Record<string, unknown>): string | null {
  const n = before.length + 1;
  const lines = body.detailData;
  if (!Array.isArray(lines)) return `page ${n}: detailData is not a list`;
  if (body.hasMore === 'Y' && lines.length === 0) return `page ${n} is empty, yet the bank says it has more`;
  const previous = before.at(-1);
  if (!previous) return null;
  if (JSON.stringify(lines) === JSON.stringify(previous.detailData))
    return `page ${n} repeats page ${n - 1} (the same ${lines.length} line(s))`;
  const first = before[0].detailData as unknown[];
  const [a, b] = [lineTime(first[0]), lineTime(first.at(-1))];
  const oldestFirst = a !== null && b !== null && a < b;
  const [was, now] = [cursorOf(previous), cursorOf(body)];
  if (was !== null && now !== null && (oldestFirst ? now < was : now > was))
    return `page ${n} goes backwards: its last record is at ${snapTimestamp(new Date(now))}, ${oldestFirst ? 'before' : 'after'} page ${n - 1}'s (${snapTimestamp(new Date(was))})`;
  return null;
}

/**
 * Pages that do not add up: where every page gives the same totals of the window (credits, debits:
 * how many, how much), every line of every page together must make them; a line lost or repeated
 * between pages shows here. Totals that differ between pages are each page's own, checked alike.
 */
function totalsProblem(pages: Record<string, unknown>[]): string | null {
  const keys = ['totalCreditEntries', 'totalDebitEntries'] as const;
  const totalsOf = (p: Record<string, unknown>) => JSON.stringify(keys.map((k) => p[k] ?? null));
  const windowWide = pages.every((p) => totalsOf(p) === totalsOf(pages[0]));
  const groups = windowWide ? [pages] : pages.map((p) => [p]);
  for (const group of groups) {
    const lines = group.flatMap((p) => p.detailData as Record<string, unknown>[]);
    for (const [key, type] of [
      ['totalCreditEntries', 'CREDIT'],
      ['totalDebitEntries', 'DEBIT'],
    ] as const) {
      const total = group[0][key] as { numberOfEntries?: unknown; amount?: unknown } | undefined;
      if (!total || typeof total !== 'object') continue;
      const ofType = lines.filter((l) => l.type === type);
      const count = ofType.length;
      const amount = ofType.reduce((s, l) => s + (fromSnapAmount(l.amount) ?? 0n), 0n);
      const says = Number(total.numberOfEntries);
      const saysAmount = fromSnapAmount(total.amount);
      if ((total.numberOfEntries !== undefined && says !== count) || (saysAmount !== null && saysAmount !== amount))
        return `the ${pages.length} page(s) hold ${count} ${type.toLowerCase()} line(s) of ${amount} sen, the bank's totals say ${String(total.numberOfEntries)} of ${String(saysAmount)} sen: lines lost or repeated between pages`;
    }
  }
  return null;
}
