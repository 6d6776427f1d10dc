export {
  actorOf,
  type AuditAs,
  type AuditChanges,
  changesBetween,
  cliActor,
  cliAuditAs,
  merchantAuditState,
  OPS_API_ACTOR,
} from './audit';
export { MerchantAdmin, type OnboardedMerchant } from './merchants/merchant-admin';
export { describeMerchant, type FeeInput, type MerchantDescription, parseFeeInput } from './merchants/merchant-input';
export {
  DashboardUserAdmin,
  DEFAULT_CONSOLE_PUBLIC_URL,
  DEFAULT_DASHBOARD_PUBLIC_URL,
  describeDashboardUser,
  setPasswordUrl,
  type DashboardUrls,
  type DashboardUserLink,
  type DashboardUserView,
} from './users/dashboard-user-admin';
export { SettlementRequests, type SettlementRun } from './settlements/settlement-requests';
export { DeadLetterActions, deadLetterId } from './dead-letters/dead-letter-actions';
export { WebhookActions, webhookDeliveryId } from './webhooks/webhook-actions';
export { type PayoutReversal, PayoutReversals, reversalView } from './disbursements/payout-reversals';
export { auditLedger, DEFAULT_GRACE_SECONDS } from './ledger/ledger-audit';
export { booksTrialBalance } from './ledger/trial-balance';
export { BooksExports, type DownloadSigner, type ExportQueue } from './ledger/books-exports';
export { ADJUSTMENT_EXPIRY_HOURS, adjustmentView, BookAdjustments } from './adjustments/book-adjustments';
export { type AdjustmentRequestInput, checkAdjustment } from './adjustments/adjustment-input';
