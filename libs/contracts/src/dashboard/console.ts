// The operator console API (`/console/api`, decision 0023): the `data` of its answers and its
// request bodies. Amounts are Rupiah as numbers, as in the merchant dashboard; times ISO 8601 UTC.
// The lists are arrays with a limit (no cursor), except the audit log (`before` / `nextBefore`).

/** A merchant as the ops API describes it (describeMerchant), amounts as numbers. */
export interface ConsoleMerchantView {
  id: number;
  name: string;
  active: boolean;
  /** percentage: 0.7 = 0.7 %; fixed in Rupiah */
  payinFee: { percentage: number; fixed: number };
  /** Flat disbursement fee in Rupiah */
  payoutFee: number;
  ipAllowlist: { enabled: boolean; entries: string[] };
  qris: { nmid: string; mcc: string; criteria: string; city: string; postalCode: string | null };
  /** e.g. "T+1 at 08:00 Asia/Jakarta" */
  settlement: string;
  rateLimits: {
    readPerSecond: number | 'default';
    writePerSecond: number | 'default';
    exportsPerMinute: number | 'default';
  };
  payinCallbackUrl: string | null;
}

/** `GET /merchants` (an array of these) and `GET /merchants/:id` */
export interface ConsoleMerchantWithBalanceView extends ConsoleMerchantView {
  balance: { available: number; pending: number };
}

export interface CreateMerchantBody {
  name: string;
}

/** `POST /merchants`: the first API token and the webhook secret are shown only here */
export interface MerchantCreatedView {
  merchantId: number;
  name: string;
  nmid: string;
  token: string;
  webhookSecret: string;
}

/** `PUT /merchants/:id/fees`: at least one; answered with ConsoleMerchantView */
export interface FeesBody {
  payinFeePercent?: number;
  payinFeeFixed?: number;
  payoutFee?: number;
}

/** `PUT /merchants/:id/qris-identity`: answered with ConsoleMerchantView */
export interface QrisIdentityBody {
  nmid?: string;
  mcc?: string;
  merchantCriteria?: string;
  city?: string;
  postalCode?: string;
}

/** `PUT /merchants/:id/settlement-schedule`: answered with ConsoleMerchantView */
export interface SettlementScheduleBody {
  delayDays?: number;
  hour?: number;
}

// `PUT /merchants/:id/allowlist` takes the merchant dashboard's AllowlistBody and
// `PUT /merchants/:id/payin-callback-url` its CallbackUrlBody; both answer ConsoleMerchantView.

/** `PUT /merchants/:id/rate-limits` (null: the gateway's default): answered with ConsoleMerchantView */
export interface RateLimitsBody {
  read: number | null;
  write: number | null;
  export: number | null;
}

// A row of `GET /merchants/:id/tokens` is the merchant dashboard's ApiTokenView.

/** `POST /merchants/:id/tokens` ({ label }): the token is shown only here */
export interface ConsoleTokenIssuedView {
  id: string;
  merchantId: number;
  prefix: string;
  token: string;
}

/** `DELETE /tokens/:id`: revoking twice answers the first revocation */
export interface ConsoleTokenRevokedView {
  id: string;
  merchantId: number;
  revokedAt: string;
}

/** `GET /merchants/:id/webhook-secret` and `POST …/webhook-secret/rotate` ({ graceHours }) */
export interface ConsoleWebhookSecretView {
  merchantId: number;
  secret: string;
  /** Until when the previous secret also signs; null: it does not */
  previousExpiresAt: string | null;
}

/** `POST /settlements/run` ({ merchantId }): settles what is waiting now */
export interface SettlementRunView {
  merchantId: number;
  settlementId?: string;
  cutoffAt: string;
  payinCount: number;
  /** false: nothing was waiting (or this cut-off was already requested); nothing was written */
  requested: boolean;
}

/** `POST /merchants/:id/users` */
export interface CreateMerchantUserBody {
  email: string;
  /** Left out: owner */
  merchantRole?: MerchantRoleName;
}

/** `PUT /users/:userId/role` */
export interface SetMerchantRoleBody {
  merchantRole: MerchantRoleName;
}

/** `POST /merchants/:id/users`: the set-password link is shown only here (valid 72 h) */
export interface MerchantUserCreatedView {
  userId: number;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: number | null;
  /** A merchant user's role (docs/access.md); null for an operator */
  merchantRole: MerchantRoleName | null;
  setPasswordUrl: string;
}

/** An API token's scope (@pay/domain API_SCOPES; access-doc.spec.ts holds the two equal) */
export type ApiScopeName =
  | 'balance:read'
  | 'payins:read'
  | 'payins:write'
  | 'payouts:read'
  | 'payouts:write'
  | 'payouts:approve'
  | 'refunds:write'
  | 'reports:read';

/** A merchant user's role (@pay/domain MERCHANT_ROLES) */
export type MerchantRoleName = 'owner' | 'developer' | 'finance' | 'viewer';

/** A row of `GET /settlements` */
export interface ConsoleSettlementView {
  id: string;
  merchantId: number;
  /** Net: what was credited */
  amount: number;
  gross: number | null;
  fees: number | null;
  payinCount: number;
  cutoffAt: string | null;
  createdAt: string;
}

/** A row of `GET /dead-letters`, and `POST /dead-letters/:id/replay` */
export interface ConsoleDeadLetterView {
  id: string;
  dlqTopic: string;
  dlqRecordId: string;
  topic: string;
  originalId: string;
  consumerGroup: string;
  key: string;
  /** Parsed when it is JSON, the text otherwise */
  value: unknown;
  headers: unknown;
  fault: string;
  error: string;
  deliveryCount: number;
  deadLetteredAt: string;
  archivedAt: string;
  status: string;
  replayedAt: string | null;
  replayOutboxId: string | null;
  resolvedAt: string | null;
  resolutionNote: string | null;
}

/** A row of `GET /webhook-deliveries` (without the body) */
export interface ConsoleWebhookDeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  merchantId: number;
  disbursementId: string | null;
  payinId: string | null;
  url: string;
  status: string;
  attemptCount: number;
  cycleAttempts: number;
  resendCount: number;
  nextAttemptAt: string | null;
  leaseUntil: string | null;
  lastAttemptAt: string | null;
  /** HTTP status of the last attempt */
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  logId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `POST /webhook-deliveries/:id/resend` */
export interface WebhookResentView {
  id: string;
  eventId: string;
  status: string;
}

/** `POST /disbursements/:id/reverse` (a successful payout the beneficiary's bank returned) */
export interface DisbursementReversalView {
  disbursementId: string;
  merchantId: number;
  merchantTrxId: string;
  status: 'reversed';
  /** ISO 8601, the first reversal's */
  reversedAt: string;
  reason: string;
  /** amount + fee, Rupiah, back into the merchant's available */
  returned: number;
  /** Reversed before: nothing was done this time */
  alreadyReversed: boolean;
}

export interface AuditEntryView {
  id: string;
  /** null for a change made through the ops API or the admin CLI (then `actor`) */
  operatorUserId: number | null;
  /** `ops-api` (the admin token) or `cli:<os user>@<host>`; null for an operator's */
  actor: string | null;
  /** Who acted: the operator's email (dashboard_users), or the actor */
  operatorEmail: string;
  action: string;
  /** `<kind>:<id>`, e.g. merchant:7 */
  target: string;
  details: Record<string, unknown>;
  logId: string | null;
  at: string;
}

/** `GET /audit-log?before&limit&operatorUserId&target`, newest first */
export interface AuditLogPageView {
  entries: AuditEntryView[];
  /** Pass as `before` for the next (older) page; null on the last page */
  nextBefore: string | null;
}

/** One finding of the ledger audit: a row that disagrees with the events, or one still in flight */
export interface LedgerFindingView {
  table: string;
  /** The row's key */
  id: string;
  merchantId: number | null;
  check: string;
  expected: string;
  found: string;
}

/** `GET /ledger/verify?merchantId&grace`: the ledger audit (`admin ledger verify`) */
export interface LedgerReportView {
  merchantsChecked: number;
  eventsChecked: number;
  merchantsExamined: number;
  /** The books read: journal entries, postings, accounts */
  booksChecked: { entries: number; postings: number; accounts: number };
  breaches: LedgerFindingView[];
  inFlight: LedgerFindingView[];
  /** Not breaches: money in suspense that no open reconciliation break explains, or an open break's share not there */
  warnings: LedgerFindingView[];
  graceSeconds: number;
}

/** One account of the books' trial balance, amounts in Rupiah (a debit or a credit, the other 0) */
export interface TrialBalanceLineView {
  /** The account's code in the chart (e.g. `merchant:7:available`, `acquirer:qris:receivable`) */
  account: string;
  kind: 'asset' | 'liability' | 'revenue' | 'expense' | 'suspense' | string;
  merchantId: number | null;
  debit: number;
  credit: number;
}

/** `GET /ledger/trial-balance?date`: the platform's books (`admin ledger trial-balance`), now or at a Jakarta day's close */
export interface TrialBalanceView {
  asOf: string | null;
  entries: number;
  lines: TrialBalanceLineView[];
  totalDebit: number;
  totalCredit: number;
  balanced: boolean;
}

/** The books' files of a day: every posting of its journal entries, the trial balance at its close, or the day's reconciliation report (every run) */
export type BooksExportKind = 'journal' | 'trial-balance' | 'reconciliation';

/** `POST /books/exports` {date, kind}, `GET /books/exports/:id`: a finance export (`admin books export`) */
export interface BooksExportView {
  id: string;
  /** The Jakarta day, YYYY-MM-DD */
  date: string;
  kind: BooksExportKind;
  /** stale: built, but the day's entries (for reconciliation: its runs or breaks) changed since (its file, as of then, still has a URL; request the day again for a current one) */
  status: 'queued' | 'running' | 'ready' | 'failed' | 'stale';
  /** Once built: the CSV's rows (postings, accounts, or summary and break rows), the entries covered (for reconciliation: the day's runs), the totals in Rupiah (null for reconciliation) */
  rows: number | null;
  entries: number | null;
  totalDebit: number | null;
  totalCredit: number | null;
  /** Once built: debits = credits (null for reconciliation) */
  balanced: boolean | null;
  /** Once built, reconciliation only: the open breaks the file shows (null for the ledger's files) */
  openBreaks: number | null;
  /** A presigned download URL, when ready (valid RECON_URL_TTL_SECONDS) */
  url: string | null;
  /** Why it failed */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** `POST /users/:userId/reset-link`: a new one-time set-password link, shown only in this answer */
export interface DashboardUserLinkView {
  userId: number;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: number | null;
  setPasswordUrl: string;
}

/** `GET /users` (every dashboard and console user), `POST /users/:userId/disable|enable|unlock`: never a hash or a secret */
export interface ConsoleUserView {
  userId: number;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: number | null;
  merchantRole: MerchantRoleName | null;
  passwordSet: boolean;
  totpEnabled: boolean;
  /** ISO time while a lockout lasts; null otherwise */
  lockedUntil: string | null;
  disabled: boolean;
  createdAt: string;
}

/** One line of an adjustment: an account of the chart and Rupiah, signed (a debit positive, a credit negative) */
export interface AdjustmentLineView {
  account: string;
  amount: number;
}

/** `GET /adjustments`, `GET /adjustments/:id` and the answers of request, approve and reject (maker-checker) */
export interface AdjustmentView {
  id: string;
  /** null: the platform's own accounts only */
  merchantId: number | null;
  postings: AdjustmentLineView[];
  reason: string;
  /** A request nobody decided before expiresAt is expired */
  status: 'requested' | 'approved' | 'rejected' | 'expired';
  /** `operator:<user id>` (the console), `ops-api` or `cli:<user>@<host>` */
  requestedBy: string;
  /** The operator's email, else requestedBy */
  requestedByName: string;
  requestedAt: string;
  expiresAt: string;
  decidedBy: string | null;
  decidedByName: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  /** Once approved: what the ledger made of it (pending: not read yet) */
  ledger: { outcome: 'pending' | 'applied' | 'rejected'; reason: string | null; decidedAt: string | null } | null;
}

/** `POST /adjustments` */
export interface AdjustmentRequestBody {
  merchantId?: number | null;
  postings: AdjustmentLineView[];
  reason: string;
}

/** `POST /adjustments/:id/approve` (note optional) and `/reject` (note required) */
export interface AdjustmentDecisionBody {
  note?: string;
}

/** One side of a reconciled day: how many lines or entries and their exact sum in Rupiah */
export interface ReconSideView {
  count: number;
  amount: number;
}

/** `GET /recon/runs` (newest day first; from, to, open=true): a day's run as its last run left it (docs/operations/reconciliation.md) */
export interface ReconRunView {
  id: string;
  /** The Jakarta day, YYYY-MM-DD */
  date: string;
  /** The acquirer's account in the books (qris; sandbox: the simulator's sandbox money) */
  acquirer: string;
  rail: string;
  ranAt: string;
  /** `operator:<user id>` (the console), `ops-api` or `cli:<user>@<host>` */
  ranBy: string;
  /** The operator's email, else ranBy */
  ranByName: string;
  reportIngested: boolean;
  statementIngested: boolean;
  sides: {
    ledgerPayins: ReconSideView;
    reportLines: ReconSideView & { mdr: number; net: number };
    matchedPayins: ReconSideView;
    statementCredits: ReconSideView;
    statementDebits: ReconSideView;
    ledgerPayouts: ReconSideView;
    ledgerRailFees: ReconSideView;
  };
  /** Rupiah the day's batches left in suspense (positive: owed to the platform) */
  suspense: number;
  breaks: { open: number; resolved: number; cleared: number };
}

export type ReconBreakCode =
  | 'missing_in_report'
  | 'missing_in_statement'
  | 'missing_in_ledger'
  | 'unexpected'
  | 'amount_differs'
  | 'date_differs'
  | 'duplicate';

/** A break of a day: both sides' values (Rupiah), its suspense share, owner and resolution; the answer of assign and resolve */
export interface ReconBreakView {
  id: string;
  code: ReconBreakCode;
  side: 'report' | 'statement';
  subject: 'payin' | 'report_line' | 'refund' | 'refund_line' | 'batch' | 'statement_line' | 'payout' | 'fee';
  /** The RRN, batch id, disbursement id or bank transaction id */
  reference: string;
  batchId: string | null;
  /** The ledger's (or the report's against the bank) */
  expectedAmount: number | null;
  /** The other side's */
  actualAmount: number | null;
  expectedDate: string | null;
  actualDate: string | null;
  suspense: number;
  detail: string;
  /** cleared: the last run no longer found it */
  status: 'open' | 'resolved' | 'cleared';
  owner: string | null;
  resolution: string | null;
  resolvedBy: string | null;
  resolvedByName: string | null;
  resolvedAt: string | null;
}

/** A report or statement ingested for a day; the answer of `POST /recon/sources` */
export interface ReconSourceView {
  kind: 'report' | 'statement';
  /** The acquirer (report) or the rail (statement) */
  name: string;
  origin: 'csv' | 'snap' | string;
  lines: number;
  ingestedAt: string;
  ingestedBy: string;
}

/** `GET /recon/runs/:id` and `POST /recon/runs` (run a day again): the run, its sources, every break (cleared ones last) */
export interface ReconDayReportView {
  run: ReconRunView;
  sources: ReconSourceView[];
  breaks: ReconBreakView[];
}

/** `POST /recon/runs` */
export interface ReconRunBody {
  date: string;
  acquirer?: string;
  rail?: string;
  settlementLagDays?: number;
}

/** `POST /recon/sources`: a CSV as its lines (no string of the API holds a line break), header first */
export interface ReconSourceBody {
  date: string;
  kind: 'report' | 'statement';
  lines: string[];
  acquirer?: string;
  rail?: string;
}
