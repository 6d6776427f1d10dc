export {
  waitForDatabase,
  describeDatabaseError,
  createPrismaClient,
  databaseUrlOf,
  isUniqueViolation,
  Prisma,
  PrismaClient,
  type TransactionClient,
} from './client/prisma';
export { startOpsAndWait, type OpsStartOptions } from './client/ops-start';
export { createDatabaseClients } from './client/database-clients';
export { databaseEnvShape, databaseSection, type DatabaseConfig, withApplicationName } from './client/database.config';
export {
  createPgPool,
  guardPool,
  inTransaction,
  sql,
  sqlClient,
  type IsolationLevel,
  type SqlClient,
  type SqlQuery,
} from './client/sql';
export { GroupWriter } from './client/group-writer';
export {
  applyMigrations,
  ensureDatabase,
  dropDatabase,
  MigrationError,
  type MigrationResult,
} from './migrations/migrate';
export {
  MerchantRepository,
  type MerchantChange,
  type MerchantView,
  type MerchantWebhookSecrets,
} from './merchants/merchant.repository';
export {
  MerchantAuthRepository,
  MERCHANT_AUTH_CHANGED_CHANNEL,
  TOKEN_STATEMENTS,
  type AuthenticatedMerchant,
  type BalanceAccess,
  type MerchantBalance,
  type MerchantRateLimits,
  type TokenLookup,
} from './merchants/merchant-auth.repository';
export { generateToken, hashToken } from './merchants/token';
export { BalanceRepository } from './ledger/balance.repository';
export { verifyLedger, type VerifyOptions } from './ledger/audit/ledger-audit';
export { trialBalance, type TrialBalance, type TrialBalanceLine } from './books/trial-balance.query';
export { JOURNAL_FILE_COLUMNS, journalCsvCopy, streamBooksCsv, TRIAL_BALANCE_FILE_COLUMNS } from './books/books-export';
export {
  describeBreach,
  type Breach,
  type BreachCheck,
  type BreachTable,
  type VerifyReport,
} from './ledger/audit/breach';
export { PgOutboxStore, type OutboxRecord } from './outbox/pg-outbox.store';
export {
  DisbursementRepository,
  DISBURSEMENT_DECIDED_CHANNEL,
  type AuthRefusal,
  type Disbursement,
  type DisbursementInquiry,
  type NewDisbursement,
  type NewInquiry,
  type InquiryField,
  type TransferRequest,
  type TransferVerdict,
} from './disbursements/disbursement.repository';
export {
  BatchRepository,
  BATCH_ROWS_CHANNEL,
  type BatchRowView,
  type BatchSummary,
  type ClaimedBatchRow,
  type CompletedBatch,
  type DisbursementBatch,
  type DisbursementBatchRow,
  type NameCheckOutcome,
  type NewBatch,
  type NewBatchRow,
  type SubmitVerdict,
} from './disbursements/batch.repository';
export {
  APPROVAL_TTL_BOUNDS,
  PayoutApprovalRepository,
  type ApprovalDecision,
  type ApprovalVerdict,
  type BatchApprovalVerdict,
  type BatchAwaitingApproval,
  type PayoutApprovalSettings,
} from './disbursements/payout-approval.repository';
export {
  PayoutRepository,
  type ClaimedBatch,
  type ClaimRail,
  type ClaimedDisbursement,
  type PayoutOutcome,
} from './payouts/payout.repository';
export { reverseDisbursement, type ReversalOutcome } from './payouts/payout-reversal';
export {
  type Adjustment,
  type AdjustmentDecisionOutcome,
  type AdjustmentLedgerOutcome,
  type AdjustmentStatus,
  decideAdjustment,
  findAdjustment,
  insertAdjustment,
  listAdjustments,
  type NewAdjustment,
} from './adjustments/adjustment.repository';
export { outboxChannel, OUTBOX_CHANNEL } from './outbox/outbox-channel';
export { enqueueLedgerCommandSql, ledgerCommandMessage, type OutboxMessage } from './outbox/outbox-writer';
export { PG_LISTEN_HEARTBEAT_MS, PgListener, type PgChannel, type PgListenerOptions } from './client/pg-listener';
export {
  WebhookDeliveryRepository,
  type WebhookDelivery,
  type WebhookAttempt,
  type DeliveryStatus,
  type NewDelivery,
  type AttemptRecord,
  type ClaimedDelivery,
} from './webhooks/webhook-delivery.repository';
export {
  DeliveryHistoryRepository,
  type DeliverySubject,
  type RecentDelivery,
} from './webhooks/delivery-history.repository';
export {
  PayinRepository,
  type Payin,
  type NewPayin,
  type AcquirerNotice,
  type NoticeOutcome,
} from './payins/payin.repository';
export { type DuePayin, PayinExpiryRepository, type ExpiryRound } from './payins/payin-expiry.repository';
export {
  type PayinRefund,
  PayinRefundRepository,
  type RefundRequest,
  type RefundVerdict,
  type RefundView,
} from './payins/payin-refund.repository';
export { webhookDeliveryChannel, WEBHOOK_DELIVERY_CHANNEL } from './webhooks/webhook-delivery-channel';
export { SettlementListRepository, type Settlement } from './settlements/settlement-list.repository';
export { SETTLEMENT_SCAN_STATEMENT, SettlementPlanner, type PlannedSettlement } from './settlements/settlement-planner';
export {
  ReconExportRepository,
  reconCsvCopy,
  RECON_COPY_SETTINGS,
  streamReconCsv,
  RECON_COLUMNS,
  PAYOUT_FILE_COLUMNS,
  MOVEMENT_FILE_COLUMNS,
  RECON_FILE_KINDS,
  BOOKS_FILE_KINDS,
  isBooksFileKind,
  RECON_DAY_DIGEST_SQL,
  payoutsCsvCopy,
  movementsCsvCopy,
  type ReconFileKind,
  type BooksFileKind,
  type LedgerFileKind,
  type ExportTotals,
  type ExportKind,
  type ReconExport,
  type ReconTotals,
} from './recon/recon-export.repository';
export { neutraliseFormulaText } from './recon/formula-neutraliser';
export { decodeCursor, encodeCursor, type ListKind } from './history/list-cursor';
export {
  HistoryRepository,
  type BalanceMovement,
  type DisbursementListStatus,
  type ListPosition,
  type ListWindow,
  type PayinListStatus,
} from './history/history.repository';
export {
  DeadLetterRepository,
  deadLetterView,
  REPLAY_OF_HEADER,
  type ArchivedRecord,
  type DeadLetter,
  type DeadLetterFilter,
  type DeadLetterStatus,
  type ReplayResult,
} from './dead-letters/dead-letter.repository';
export { OverviewRepository, type DayTotals } from './dashboard/overview.repository';
export {
  AuditLogRepository,
  type AuditEntry,
  type AuditListEntry,
  type AuditPage,
  type NewAuditEntry,
} from './dashboard/audit-log.repository';
export {
  DashboardUserRepository,
  LOCKOUT_FAILURES,
  LOCKOUT_MS,
  normaliseEmail,
  type DashboardRole,
  type DashboardUser,
} from './dashboard/dashboard-user.repository';
export { DashboardPasswordLinkRepository, PASSWORD_LINK_TTL_MS } from './dashboard/dashboard-password-link.repository';
export {
  DashboardSessionRepository,
  REAUTH_WINDOW_MS,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  SESSION_TOUCH_MS,
  type DashboardSession,
} from './dashboard/dashboard-session.repository';
export {
  ARGON2ID_OPTIONS,
  hashPassword,
  passwordProblem,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './dashboard/password';
export {
  type MerchantClock,
  type NextDue,
  REAL_TIME,
  SANDBOX_CLOCK_CHANNEL,
  type SandboxClock,
  SandboxClockRepository,
} from './sandbox/sandbox-clock.repository';
export {
  type MerchantDelivery,
  type MerchantEvent,
  type MerchantEventPage,
  MerchantEventRepository,
} from './events/merchant-event.repository';
