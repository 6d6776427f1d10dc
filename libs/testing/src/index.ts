export {
  changeUnannounced,
  createDisbursement,
  createMerchant,
  directPayoutId,
  insertPayin,
  insertSuccessfulPayin,
  fundMerchant,
  ledgerFor,
  paidNotification,
  sandboxPaidPayin,
} from './fixtures';
export { createTestDatabase, dropDatabase, uniqueName, TEST_PG_SERVER, MIGRATIONS_DIR } from './test-database';
export { default as intGlobalSetup } from './int-global-setup';
export { default as intGlobalTeardown } from './int-global-teardown';
export { repoRoot } from './repo-root';
export { committedValues, deploymentFiles, valuesGivenTo } from './deploy/committed-values';
export { ledgerCommand, publishLedgerCommands } from './seed/ledger-commands';
export { seedDemoMerchant, waitFor, DEMO_MERCHANT_NAME } from './seed/demo-merchant';
export { merchantAuditOnceSettled } from './ledger/payouts-audit';
export { finishBooksExportByHand } from './books/books-export-by-hand';
export {
  seedDemoDashboardUsers,
  DEMO_MERCHANT_USER_EMAIL,
  DEMO_OPERATOR_EMAIL,
  type DemoSignIn,
} from './seed/demo-dashboard-users';
export { debitedTransfer } from './payouts/held-payout';
export { debitedRefund } from './payins/debited-refund';
export { RecordingLiveRail } from './rail/recording-live-rail';
export { WebhookReceiver, type ReceivedWebhook, type ReceiverScript } from './http/webhook-receiver';
export { UnacceptingListener } from './http/unaccepting-listener';
export { madeUpNames } from './http/made-up-names';
export {
  closeSchemas,
  installContractFetch,
  merchantContract,
  opsContract,
  registerContract,
  takeContractViolations,
  uncheckedFetch,
  type ContractOptions,
} from './http/openapi-contract';
export {
  createDashboardUser,
  signInDashboard,
  signedInMerchantUser,
  signedInOperator,
  TEST_DASHBOARD_PASSWORD,
  type DashboardSignIn,
  type TestDashboardUser,
} from './dashboard/dashboard-users';
export { firstRenderWatcher, type Ready } from './browser/first-render';
