export { createMerchant, insertPayin, insertSuccessfulPayin, fundMerchant, ledgerFor } from './fixtures';
export { createTestDatabase, dropDatabase, uniqueName, TEST_PG_SERVER, MIGRATIONS_DIR } from './test-database';
export { LocalStack, SERVICES, type ServiceName, type StackOptions, freePort, repoRoot } from './stack/local-stack';
export { ledgerCommand, publishLedgerCommands } from './seed/ledger-commands';
export { seedDemoMerchant, waitFor, DEMO_MERCHANT_NAME } from './seed/demo-merchant';
export { WebhookReceiver, type ReceivedWebhook, type ReceiverScript } from './http/webhook-receiver';
export { LocalS3, LOCAL_S3_CREDENTIALS } from './s3/local-s3';
export { runChaos, type ChaosOptions, type ChaosReport } from './chaos/chaos-run';
