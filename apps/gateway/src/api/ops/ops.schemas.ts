import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { API_SCOPES, type ApiScope } from '@pay/domain';
import { BREAK_CODES } from '@pay/reconciliation';

/**
 * The `data` of each ops answer, for the operations document (docs/ops-openapi.json) only: the
 * controllers and describeMerchant build the values.
 */

const RUPIAH_TEXT = 'Rupiah as text, at most two decimals (no trailing zeros)';
const TIME = { type: String, format: 'date-time' } as const;
const NULLABLE_TIME = { type: String, format: 'date-time', nullable: true } as const;
const NULLABLE_TEXT = { type: String, nullable: true } as const;
const LIMIT = {
  oneOf: [
    { type: 'integer', minimum: 1 },
    { type: 'string', enum: ['default'] },
  ],
  description: "The merchant's own limit, or `default` (the gateway's)",
};

@ApiSchema({ name: 'MerchantCreated' })
export class MerchantCreatedSchema {
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ example: 'Toko Sinar Jaya' }) name!: string;
  @ApiProperty({ example: 'ID1020021181745' }) nmid!: string;
  @ApiProperty({ example: 'mtk_3q9Zk2M4T7pA…', description: 'The API token; shown only now' }) token!: string;
  @ApiProperty({ example: 'whsec_5257a869e7ecebed…', description: 'Signs the callbacks (X-Callback-Signature)' })
  webhookSecret!: string;
}

@ApiSchema({ name: 'MerchantPayinFee' })
export class MerchantPayinFeeSchema {
  @ApiProperty({ example: 0.7, description: 'Percent (0.7 means 0.7 %)' }) percentage!: number;
  @ApiProperty({ example: '150', description: RUPIAH_TEXT }) fixed!: string;
}

@ApiSchema({ name: 'MerchantIpAllowlist' })
export class MerchantIpAllowlistSchema {
  @ApiProperty({ example: true }) enabled!: boolean;
  @ApiProperty({ type: [String], example: ['203.0.113.7', '198.51.100.0/24'] }) entries!: string[];
}

@ApiSchema({ name: 'MerchantQris' })
export class MerchantQrisSchema {
  @ApiProperty({ example: 'ID1020021181745' }) nmid!: string;
  @ApiProperty({ example: '5499' }) mcc!: string;
  @ApiProperty({ enum: ['UMI', 'UKE', 'UME', 'UBE', 'URE'], example: 'UMI' }) criteria!: string;
  @ApiProperty({ example: 'JAKARTA' }) city!: string;
  @ApiProperty({ ...NULLABLE_TEXT, example: '10110' }) postalCode!: string | null;
}

@ApiSchema({ name: 'MerchantRateLimits' })
export class MerchantRateLimitsSchema {
  @ApiProperty({ ...LIMIT, example: 'default' }) readPerSecond!: number | 'default';
  @ApiProperty({ ...LIMIT, example: 20 }) writePerSecond!: number | 'default';
  @ApiProperty({ ...LIMIT, example: 'default' }) exportsPerMinute!: number | 'default';
}

/** A merchant as operators read it (describeMerchant; `admin --json merchant show`). */
@ApiSchema({ name: 'MerchantDescription' })
export class MerchantDescriptionSchema {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty({ example: 'Toko Sinar Jaya' }) name!: string;
  @ApiProperty({ example: true, description: 'An inactive merchant is refused (401 MERCHANT_NOT_ACTIVE)' })
  active!: boolean;
  @ApiProperty({ type: MerchantPayinFeeSchema }) payinFee!: MerchantPayinFeeSchema;
  @ApiProperty({ example: '2500', description: 'Flat disbursement fee. ' + RUPIAH_TEXT }) payoutFee!: string;
  @ApiProperty({ type: MerchantIpAllowlistSchema }) ipAllowlist!: MerchantIpAllowlistSchema;
  @ApiProperty({ type: MerchantQrisSchema }) qris!: MerchantQrisSchema;
  @ApiProperty({ example: 'T+1 at 08:00 Asia/Jakarta' }) settlement!: string;
  @ApiProperty({ type: MerchantRateLimitsSchema }) rateLimits!: MerchantRateLimitsSchema;
  @ApiProperty({
    ...NULLABLE_TEXT,
    example: 'https://merchant.example/callbacks/payin',
    description: 'Default pay-in callback URL',
  })
  payinCallbackUrl!: string | null;
}

@ApiSchema({ name: 'MerchantAllowlist' })
export class MerchantAllowlistSchema extends MerchantIpAllowlistSchema {
  @ApiProperty({ example: 7 }) merchantId!: number;
}

@ApiSchema({ name: 'RateLimitValues' })
export class RateLimitValuesSchema {
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'Reads per second; null: the default' })
  read!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 20, description: 'Writes per second; null: the default' })
  write!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'New recon exports per minute; null: the default',
  })
  export!: number | null;
}

@ApiSchema({ name: 'MerchantRateLimitsSet' })
export class MerchantRateLimitsSetSchema {
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ type: RateLimitValuesSchema }) rateLimits!: RateLimitValuesSchema;
}

@ApiSchema({ name: 'PayinCallbackUrl' })
export class PayinCallbackUrlSchema {
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'https://merchant.example/callbacks/payin' }) payinCallbackUrl!:
    string | null;
}

@ApiSchema({ name: 'SettlementRun' })
export class SettlementRunSchema {
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({
    required: false,
    example: 'b1e2c3d4-0000-4000-8000-000000000007',
    description: 'Absent when nothing was waiting to be settled',
  })
  settlementId?: string;
  @ApiProperty({ ...TIME, example: '2026-11-22T01:00:00.000Z' }) cutoffAt!: string;
  @ApiProperty({ example: 12, description: 'Pay-ins the settlement covers' }) payinCount!: number;
  @ApiProperty({
    example: true,
    description: 'false: this cut-off was already settled or requested, or nothing was waiting; nothing was written',
  })
  requested!: boolean;
}

@ApiSchema({ name: 'TokenIssued' })
export class TokenIssuedSchema {
  @ApiProperty({ format: 'uuid', example: '3f0b8c2a-9e11-4a43-9d1e-7d3c1f0e5b7a' }) id!: string;
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ example: 'mtk_3q9Z', description: 'Tells tokens apart in listings' }) prefix!: string;
  @ApiProperty({ example: 'mtk_3q9Zk2M4T7pA…', description: 'Shown only now (only a hash is stored)' }) token!: string;
  @ApiProperty({ type: [String], enum: API_SCOPES, example: API_SCOPES, description: 'What the token may do' })
  scopes!: ApiScope[];
}

@ApiSchema({ name: 'TokenListItem' })
export class TokenListItemSchema {
  @ApiProperty({ format: 'uuid', example: '3f0b8c2a-9e11-4a43-9d1e-7d3c1f0e5b7a' }) id!: string;
  @ApiProperty({ example: 'mtk_3q9Z' }) prefix!: string;
  @ApiProperty({ example: 'ops api' }) label!: string;
  @ApiProperty({ type: [String], enum: API_SCOPES, example: API_SCOPES, description: 'What the token may do' })
  scopes!: ApiScope[];
  @ApiProperty({ ...TIME, example: '2026-11-22T01:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ ...NULLABLE_TIME, example: '2026-11-22T02:00:00.000Z' }) lastUsedAt!: string | null;
  @ApiProperty({ ...NULLABLE_TIME, example: null }) revokedAt!: string | null;
}

@ApiSchema({ name: 'TokenRevoked' })
export class TokenRevokedSchema {
  @ApiProperty({ format: 'uuid', example: '3f0b8c2a-9e11-4a43-9d1e-7d3c1f0e5b7a' }) id!: string;
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ ...TIME, example: '2026-11-22T03:00:00.000Z', description: 'The first revocation' })
  revokedAt!: string;
}

@ApiSchema({ name: 'WebhookSecret' })
export class WebhookSecretSchema {
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ example: 'whsec_5257a869e7ecebed…' }) secret!: string;
  @ApiProperty({
    ...NULLABLE_TIME,
    example: '2026-11-23T03:00:00.000Z',
    description: 'Until when the previous secret also signs; null: it does not',
  })
  previousExpiresAt!: string | null;
}

/** An archived dead letter (deadLetterView; `admin dlq show`). */
@ApiSchema({ name: 'DeadLetter' })
export class DeadLetterSchema {
  @ApiProperty({ example: '42', description: 'A bigint, as text' }) id!: string;
  @ApiProperty({ example: 'ledger.commands.dlq' }) dlqTopic!: string;
  @ApiProperty({ example: '1732240265100-0' }) dlqRecordId!: string;
  @ApiProperty({ example: 'ledger.commands' }) topic!: string;
  @ApiProperty({ example: '1732240265000-0' }) originalId!: string;
  @ApiProperty({ example: 'ledger' }) consumerGroup!: string;
  @ApiProperty({ example: '7' }) key!: string;
  @ApiProperty({
    oneOf: [
      { type: 'object' },
      { type: 'array', items: {} },
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
    ],
    nullable: true,
    description: 'The message: its JSON when it is JSON, else the text',
  })
  value!: unknown;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { 'x-log-id': '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11' },
  })
  headers!: Record<string, unknown>;
  @ApiProperty({
    example: 'permanent',
    description: 'permanent (the message can never be processed) or unknown (retries exhausted)',
  })
  fault!: string;
  @ApiProperty({ example: 'unknown command type' }) error!: string;
  @ApiProperty({ example: 5 }) deliveryCount!: number;
  @ApiProperty({ ...TIME, example: '2026-11-22T01:00:00.000Z' }) deadLetteredAt!: string;
  @ApiProperty({ ...TIME, example: '2026-11-22T01:00:01.000Z' }) archivedAt!: string;
  @ApiProperty({ enum: ['open', 'replayed', 'resolved'], example: 'open' }) status!: string;
  @ApiProperty({ ...NULLABLE_TIME, example: null }) replayedAt!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null, description: 'The outbox row of the replay (a bigint, as text)' })
  replayOutboxId!: string | null;
  @ApiProperty({ ...NULLABLE_TIME, example: null }) resolvedAt!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null }) resolutionNote!: string | null;
}

@ApiSchema({ name: 'LedgerBreach' })
export class LedgerBreachSchema {
  @ApiProperty({ example: 'balance.available', description: 'The fact that does not hold (stable names)' })
  check!: string;
  @ApiProperty({
    enum: [
      'balances',
      'payins',
      'settlements',
      'disbursements',
      'ledger_events',
      'ledger_commands',
      'journal_entries',
      'accounts',
      'recon_breaks',
    ],
    example: 'balances',
  })
  table!: string;
  @ApiProperty({ example: '7', description: "The row's key" }) id!: string;
  @ApiProperty({ type: Number, nullable: true, example: 7 }) merchantId!: number | null;
  @ApiProperty({ example: '1500000', description: 'Amounts in minor units (sen)' }) expected!: string;
  @ApiProperty({ example: '1490000' }) found!: string;
}

@ApiSchema({ name: 'LedgerRowsChecked' })
export class LedgerRowsCheckedSchema {
  @ApiProperty({ example: 120 }) payins!: number;
  @ApiProperty({ example: 3 }) settlements!: number;
  @ApiProperty({ example: 40 }) disbursements!: number;
  @ApiProperty({ example: 40 }) decisions!: number;
}

@ApiSchema({ name: 'BooksChecked' })
export class BooksCheckedSchema {
  @ApiProperty({ example: 480 }) entries!: number;
  @ApiProperty({ example: 1320 }) postings!: number;
  @ApiProperty({ example: 31 }) accounts!: number;
}

/** One account of the trial balance (`admin ledger trial-balance`). */
@ApiSchema({ name: 'TrialBalanceLine' })
export class TrialBalanceLineSchema {
  @ApiProperty({ example: 'acquirer:qris:receivable', description: 'The account code in the chart of accounts' })
  account!: string;
  @ApiProperty({ enum: ['asset', 'liability', 'revenue', 'expense', 'suspense'], example: 'asset' }) kind!: string;
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'The merchant whose account it is' })
  merchantId!: number | null;
  @ApiProperty({ example: 1000000, description: 'Rupiah; 0 when the balance is a credit' }) debit!: number;
  @ApiProperty({ example: 0, description: 'Rupiah; 0 when the balance is a debit' }) credit!: number;
}

/** The platform's books, every account and the totals (`admin ledger trial-balance` as JSON). */
@ApiSchema({ name: 'TrialBalance' })
export class TrialBalanceSchema {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-28',
    description: 'The Jakarta day whose close it shows; null: now',
  })
  asOf!: string | null;
  @ApiProperty({ example: 480, description: 'Journal entries up to then' }) entries!: number;
  @ApiProperty({ type: [TrialBalanceLineSchema] }) lines!: TrialBalanceLineSchema[];
  @ApiProperty({ example: 1000000 }) totalDebit!: number;
  @ApiProperty({ example: 1000000 }) totalCredit!: number;
  @ApiProperty({ example: true, description: 'Total debits equal total credits, to the sen' }) balanced!: boolean;
}

/** A finance export: the day's journal, trial balance or reconciliation report as a CSV built by the workers (`admin books export`). */
@ApiSchema({ name: 'BooksExport' })
export class BooksExportSchema {
  @ApiProperty({ format: 'uuid', example: '5f0c7a52-2a55-4d8e-9a4e-6d1f3f0c2b11' }) id!: string;
  @ApiProperty({ example: '2026-11-28', description: 'The Jakarta day' }) date!: string;
  @ApiProperty({
    enum: ['journal', 'trial-balance', 'reconciliation'],
    example: 'journal',
    description:
      "journal: every posting of the day's entries; trial-balance: every account at the day's close; reconciliation: every reconciliation run of the day, its summary then its breaks",
  })
  kind!: string;
  @ApiProperty({
    enum: ['queued', 'running', 'ready', 'failed', 'stale'],
    example: 'ready',
    description:
      "stale: built, but the day's journal entries (reconciliation: its runs or breaks) changed since (the file, as of then, still has its URL); request the day again for a current one",
  })
  status!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1320,
    description: 'CSV rows under the header: postings, accounts, or summary and break rows',
  })
  rows!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 480,
    description: "Journal entries the file covers (reconciliation: the day's runs, each acquirer and rail)",
  })
  entries!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 1000000, description: 'Rupiah' }) totalDebit!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 1000000, description: 'Rupiah' }) totalCredit!: number | null;
  @ApiProperty({
    type: Boolean,
    nullable: true,
    example: true,
    description: 'Debits = credits, to the sen (null for reconciliation, which has no debit or credit)',
  })
  balanced!: boolean | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'Reconciliation only: the open breaks the file shows (null for journal and trial-balance)',
  })
  openBreaks!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://files.example.com/recon/books/2026-11-28/journal-5f0c….csv?X-Amz-Signature=…',
    description: 'Presigned download URL when ready (valid RECON_URL_TTL_SECONDS)',
  })
  url!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why it failed' }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) finishedAt!: string | null;
}

/** `admin ledger verify` as JSON. */
@ApiSchema({ name: 'LedgerReport' })
export class LedgerReportSchema {
  @ApiProperty({ example: 12 }) merchantsChecked!: number;
  @ApiProperty({ example: 480 }) eventsChecked!: number;
  @ApiProperty({ type: LedgerRowsCheckedSchema }) rowsChecked!: LedgerRowsCheckedSchema;
  @ApiProperty({ type: BooksCheckedSchema, description: 'The books read (decision 0049)' })
  booksChecked!: BooksCheckedSchema;
  @ApiProperty({ example: 0, description: 'Merchants examined row by row (their digests disagreed)' })
  merchantsExamined!: number;
  @ApiProperty({ type: [LedgerBreachSchema] }) breaches!: LedgerBreachSchema[];
  @ApiProperty({ type: [LedgerBreachSchema], description: 'Younger than the grace period: not breaches' })
  inFlight!: LedgerBreachSchema[];
  @ApiProperty({
    type: [LedgerBreachSchema],
    description:
      'Not breaches: money in suspense held by open reconciliation breaks (books.suspense_open_break) or not explained by them (books.suspense_unexplained); unscoped audits only (docs/books.md)',
  })
  warnings!: LedgerBreachSchema[];
  @ApiProperty({ example: 300 }) graceSeconds!: number;
}

@ApiSchema({ name: 'WebhookAttempt' })
export class WebhookAttemptSchema {
  @ApiProperty({ example: '91', description: 'A bigint, as text' }) id!: string;
  @ApiProperty({ format: 'uuid', example: '0f6c3e2a-9b1d-4c5e-8f7a-2d3b4c5d6e7f' }) deliveryId!: string;
  @ApiProperty({ example: 1 }) attemptNo!: number;
  @ApiProperty({ ...TIME, example: '2026-11-22T01:00:00.000Z' }) startedAt!: string;
  @ApiProperty({ example: 84 }) latencyMs!: number;
  @ApiProperty({ type: Number, nullable: true, example: 503 }) statusCode!: number | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null }) error!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'Service Unavailable', description: 'First 1 KiB of the answer' })
  responseBody!: string | null;
  @ApiProperty({ enum: ['delivered', 'retry', 'failed', 'dead'], example: 'retry' }) outcome!: string;
  @ApiProperty({ ...NULLABLE_TIME, example: '2026-11-22T01:00:30.000Z' }) nextAttemptAt!: string | null;
}

/** A callback delivery and its attempts (`admin webhook show`). */
@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliverySchema {
  @ApiProperty({ format: 'uuid', example: '0f6c3e2a-9b1d-4c5e-8f7a-2d3b4c5d6e7f' }) id!: string;
  @ApiProperty({ example: 'disbursement.7f0c2a1e.success' }) eventId!: string;
  @ApiProperty({ example: 'disbursement.succeeded' }) eventType!: string;
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null }) disbursementId!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null }) payinId!: string | null;
  @ApiProperty({ example: 'https://merchant.example/callback' }) url!: string;
  @ApiProperty({ example: '{"id":"disbursement.7f0c2a1e.success",…}', description: 'The exact JSON sent and signed' })
  body!: string;
  @ApiProperty({ enum: ['pending', 'delivering', 'delivered', 'failed', 'dead'], example: 'delivered' })
  status!: string;
  @ApiProperty({ example: 1 }) attemptCount!: number;
  @ApiProperty({ example: 1 }) cycleAttempts!: number;
  @ApiProperty({ example: 0 }) resendCount!: number;
  @ApiProperty({ ...NULLABLE_TIME, example: null }) nextAttemptAt!: string | null;
  @ApiProperty({ ...NULLABLE_TIME, example: null }) leaseUntil!: string | null;
  @ApiProperty({ ...NULLABLE_TIME, example: '2026-11-22T01:00:00.000Z' }) lastAttemptAt!: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 200 }) lastStatusCode!: number | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null }) lastError!: string | null;
  @ApiProperty({ ...NULLABLE_TIME, example: '2026-11-22T01:00:00.000Z' }) deliveredAt!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11' }) logId!: string | null;
  @ApiProperty({ ...TIME, example: '2026-11-22T00:59:59.000Z' }) createdAt!: string;
  @ApiProperty({ ...TIME, example: '2026-11-22T01:00:00.000Z' }) updatedAt!: string;
  @ApiProperty({ type: [WebhookAttemptSchema] }) attempts!: WebhookAttemptSchema[];
}

@ApiSchema({ name: 'WebhookResend' })
export class WebhookResendSchema {
  @ApiProperty({ format: 'uuid', example: '0f6c3e2a-9b1d-4c5e-8f7a-2d3b4c5d6e7f' }) id!: string;
  @ApiProperty({ example: 'disbursement.7f0c2a1e.success' }) eventId!: string;
  @ApiProperty({ enum: ['pending'], example: 'pending' }) status!: string;
}

@ApiSchema({ name: 'WebhookResendFailed' })
export class WebhookResendFailedSchema {
  @ApiProperty({ type: [String], example: ['disbursement.7f0c2a1e.failed'], description: 'Event ids queued again' })
  resent!: string[];
}

@ApiSchema({ name: 'DisbursementReversal' })
export class DisbursementReversalSchema {
  @ApiProperty({ format: 'uuid', example: '7f0c2a1e-3d1c-4a55-9a57-2f0d3c8e9b11' }) disbursementId!: string;
  @ApiProperty({ example: 7 }) merchantId!: number;
  @ApiProperty({ example: 'INV-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ enum: ['reversed'], example: 'reversed' }) status!: string;
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-25T03:02:11.000Z',
    description: 'When it was reversed (the first time)',
  })
  reversedAt!: string;
  @ApiProperty({ example: 'Returned by BCA on 2026-11-25: beneficiary account closed', description: 'As first given' })
  reason!: string;
  @ApiProperty({ example: 102500, description: "amount + fee, Rupiah: what goes back into the merchant's available" })
  returned!: number;
  @ApiProperty({ example: false, description: 'Reversed before this request: nothing was done this time' })
  alreadyReversed!: boolean;
}

@ApiSchema({ name: 'AdjustmentLine' })
export class AdjustmentLineSchema {
  @ApiProperty({ example: 'merchant:7:available', description: 'An account of the chart (docs/books.md)' })
  account!: string;
  @ApiProperty({ example: -150000, description: 'Rupiah, signed: a debit positive, a credit negative' })
  amount!: number;
}

@ApiSchema({ name: 'AdjustmentLedgerOutcome' })
export class AdjustmentLedgerOutcomeSchema {
  @ApiProperty({
    enum: ['pending', 'applied', 'rejected'],
    example: 'applied',
    description: 'pending: approved, the ledger has not read it yet',
  })
  outcome!: string;
  @ApiProperty({ ...NULLABLE_TEXT, example: null, description: "The ledger's refusal (INSUFFICIENT_BALANCE, ...)" })
  reason!: string | null;
  @ApiProperty({ ...NULLABLE_TIME }) decidedAt!: string | null;
}

/** A manual adjustment of the books (maker-checker; `admin --json adjustment show`). */
@ApiSchema({ name: 'Adjustment' })
export class AdjustmentSchema {
  @ApiProperty({ format: 'uuid', example: '5b0e7c1a-4f2d-4e8b-9d61-0c7a3b2e1f90' }) id!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 7,
    description: "The merchant whose available it moves; null: the platform's own accounts",
  })
  merchantId!: number | null;
  @ApiProperty({ type: [AdjustmentLineSchema] }) postings!: AdjustmentLineSchema[];
  @ApiProperty({ example: 'Goodwill credit for the QRIS outage of 2026-11-20 (ticket OPS-77)' }) reason!: string;
  @ApiProperty({
    enum: ['requested', 'approved', 'rejected', 'expired'],
    example: 'approved',
    description: 'A request nobody decided before expiresAt reads expired',
  })
  status!: string;
  @ApiProperty({
    example: 'operator:12',
    description: '`operator:<user id>` (the console), `ops-api` or `cli:<user>@<host>`',
  })
  requestedBy!: string;
  @ApiProperty({ example: 'ayu@example.com', description: "The operator's email, else requestedBy" })
  requestedByName!: string;
  @ApiProperty(TIME) requestedAt!: string;
  @ApiProperty(TIME) expiresAt!: string;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'operator:15' }) decidedBy!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'budi@example.com' }) decidedByName!: string | null;
  @ApiProperty(NULLABLE_TIME) decidedAt!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'Checked against the outage report' }) decisionNote!: string | null;
  @ApiProperty({
    type: AdjustmentLedgerOutcomeSchema,
    nullable: true,
    description: 'What the ledger made of it once approved; null before (or never, if rejected or expired)',
  })
  ledger!: AdjustmentLedgerOutcomeSchema | null;
}

/** One side of a reconciled day: how many lines or entries and their exact sum. */
@ApiSchema({ name: 'ReconSide' })
export class ReconSideSchema {
  @ApiProperty({ example: 3 }) count!: number;
  @ApiProperty({ example: 176234.56, description: 'Rupiah' }) amount!: number;
}

@ApiSchema({ name: 'ReconReportSide' })
export class ReconReportSideSchema extends ReconSideSchema {
  @ApiProperty({ example: 1233.64, description: "Rupiah: the acquirer's MDR of the lines" }) mdr!: number;
  @ApiProperty({ example: 175000.92, description: 'Rupiah: gross − MDR' }) net!: number;
}

/** A day's counts and exact sums per side (docs/operations/reconciliation.md). */
@ApiSchema({ name: 'ReconSides' })
export class ReconSidesSchema {
  @ApiProperty({ type: ReconSideSchema, description: "The ledger's pay-ins of the day through the acquirer" })
  ledgerPayins!: ReconSideSchema;
  @ApiProperty({ type: ReconReportSideSchema, description: "The acquirer's report lines (gross)" })
  reportLines!: ReconReportSideSchema;
  @ApiProperty({ type: ReconSideSchema, description: 'Pay-ins matched one to one by RRN' })
  matchedPayins!: ReconSideSchema;
  @ApiProperty({ type: ReconSideSchema }) statementCredits!: ReconSideSchema;
  @ApiProperty({ type: ReconSideSchema }) statementDebits!: ReconSideSchema;
  @ApiProperty({ type: ReconSideSchema, description: 'Payouts the books confirmed paid from the bank' })
  ledgerPayouts!: ReconSideSchema;
  @ApiProperty({ type: ReconSideSchema, description: "The rail's fees in the books" })
  ledgerRailFees!: ReconSideSchema;
}

@ApiSchema({ name: 'ReconBreakCounts' })
export class ReconBreakCountsSchema {
  @ApiProperty({ example: 1 }) open!: number;
  @ApiProperty({ example: 0 }) resolved!: number;
  @ApiProperty({ example: 0, description: 'No longer found by the last run' }) cleared!: number;
}

/** A day's run (one per Jakarta day, acquirer and rail), as its last run left it. */
@ApiSchema({ name: 'ReconRun' })
export class ReconRunSchema {
  @ApiProperty({ format: 'uuid', example: '3c1f0e5b-7a4a-43d1-9e3f-0b8c2a9e11d7' }) id!: string;
  @ApiProperty({ example: '2026-12-03', description: 'The Jakarta day' }) date!: string;
  @ApiProperty({ example: 'qris', description: "The acquirer's account in the books (sandbox: the simulator's)" })
  acquirer!: string;
  @ApiProperty({ example: 'snap' }) rail!: string;
  @ApiProperty(TIME) ranAt!: string;
  @ApiProperty({
    example: 'operator:12',
    description: '`operator:<user id>` (the console), `ops-api` or `cli:<user>@<host>`',
  })
  ranBy!: string;
  @ApiProperty({ example: 'ayu@example.com', description: "The operator's email, else ranBy" }) ranByName!: string;
  @ApiProperty({ example: true }) reportIngested!: boolean;
  @ApiProperty({ example: true }) statementIngested!: boolean;
  @ApiProperty({ type: ReconSidesSchema }) sides!: ReconSidesSchema;
  @ApiProperty({
    example: 5000,
    description:
      "Rupiah the day's batches left in suspense (positive: a debit, owed to the platform, e.g. a short settlement)",
  })
  suspense!: number;
  @ApiProperty({ type: ReconBreakCountsSchema }) breaks!: ReconBreakCountsSchema;
}

/** A break: what one side says and the other does not, both values kept, its owner and resolution. */
@ApiSchema({ name: 'ReconBreak' })
export class ReconBreakSchema {
  @ApiProperty({ format: 'uuid', example: '9a0b4c1e-2d3f-4e5a-8b6c-7d8e9f0a1b2c' }) id!: string;
  @ApiProperty({ enum: BREAK_CODES, example: 'amount_differs', description: 'docs/operations/reconciliation.md' })
  code!: string;
  @ApiProperty({ enum: ['report', 'statement'], example: 'statement' }) side!: string;
  @ApiProperty({
    enum: ['payin', 'report_line', 'refund', 'refund_line', 'batch', 'statement_line', 'payout', 'fee'],
    example: 'batch',
  })
  subject!: string;
  @ApiProperty({
    example: 'STL20261204001',
    description:
      "The RRN, our refund's id (or the acquirer's refund number), batch id, disbursement id or transaction id",
  })
  reference!: string;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'STL20261204001' }) batchId!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 175000.92,
    description: "Rupiah: the ledger's (or the report's against the bank)",
  })
  expectedAmount!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 170000.92, description: "Rupiah: the other side's" })
  actualAmount!: number | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null }) expectedDate!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null }) actualDate!: string | null;
  @ApiProperty({
    example: 5000,
    description: "Rupiah: the break's share of the suspense booked (positive: owed to the platform)",
  })
  suspense!: number;
  @ApiProperty({ example: 'batch STL20261204001 credited 170000.92, 175000.92 owed' }) detail!: string;
  @ApiProperty({ enum: ['open', 'resolved', 'cleared'], example: 'open' }) status!: string;
  @ApiProperty({ ...NULLABLE_TEXT, example: 'finance@example.id' }) owner!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null }) resolution!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null }) resolvedBy!: string | null;
  @ApiProperty({ ...NULLABLE_TEXT, example: null, description: "The operator's email, else resolvedBy" })
  resolvedByName!: string | null;
  @ApiProperty(NULLABLE_TIME) resolvedAt!: string | null;
}

/** A report or statement ingested for a day. */
@ApiSchema({ name: 'ReconSource' })
export class ReconSourceSchema {
  @ApiProperty({ enum: ['report', 'statement'], example: 'report' }) kind!: string;
  @ApiProperty({ example: 'qris', description: 'The acquirer (report) or the rail (statement)' }) name!: string;
  @ApiProperty({ enum: ['csv', 'snap'], example: 'csv' }) origin!: string;
  @ApiProperty({ example: 3, description: 'Lines stored (a statement: only the lines of the day)' }) lines!: number;
  @ApiProperty(TIME) ingestedAt!: string;
  @ApiProperty({ example: 'operator:12' }) ingestedBy!: string;
}

/** A day's report: the run, its sources, every break (cleared ones last). */
@ApiSchema({ name: 'ReconDayReport' })
export class ReconDayReportSchema {
  @ApiProperty({ type: ReconRunSchema }) run!: ReconRunSchema;
  @ApiProperty({ type: [ReconSourceSchema] }) sources!: ReconSourceSchema[];
  @ApiProperty({ type: [ReconBreakSchema] }) breaks!: ReconBreakSchema[];
}
