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
} from './fixtures';
export { createTestDatabase, dropDatabase, uniqueName, TEST_PG_SERVER, MIGRATIONS_DIR } from './test-database';
export {
  LocalStack,
  SERVICES,
  type ServiceName,
  type StackOptions,
  type StackBus,
  type UnexpectedExit,
  freePort,
  repoRoot,
} from './stack/local-stack';
export { ledgerCommand, publishLedgerCommands } from './seed/ledger-commands';
export { seedDemoMerchant, waitFor, DEMO_MERCHANT_NAME } from './seed/demo-merchant';
export {
  seedDemoDashboardUsers,
  DEMO_MERCHANT_USER_EMAIL,
  DEMO_OPERATOR_EMAIL,
  type DemoSignIn,
} from './seed/demo-dashboard-users';
export { WebhookReceiver, type ReceivedWebhook, type ReceiverScript } from './http/webhook-receiver';
export { LocalS3, LOCAL_S3_CREDENTIALS } from './s3/local-s3';
export { S3Proxy, S3PROXY_CREDENTIALS, S3PROXY_VERSION, type S3ProxyOptions } from './s3/s3-proxy';
export type { S3Server } from './s3/s3-server';
export { testS3 } from './s3/test-s3';
export { testBus, testStackBus, testTransport, unacknowledgedRecords, type TestBus } from './stack/test-bus';
export {
  KafkaBroker,
  KAFKA_TOPICS,
  KAFKA_PARTITIONS,
  KAFKA_VERSION,
  type KafkaBrokerOptions,
  type KafkaBrokerSecurity,
} from './infra/kafka-broker';
export { KafkaCluster } from './infra/kafka-cluster';
export { runChaos, type ChaosOptions, type ChaosReport } from './chaos/chaos-run';
export { PrivatePostgres } from './infra/private-postgres';
export { PrivateRedis } from './infra/private-redis';
export { SilentRelay } from './infra/silent-relay';
export { createTestPki, type TestPki } from './infra/test-pki';
export { startChaosEnv, type ChaosEnv, type ChaosEnvOptions } from './chaos/chaos-env';
export { NO_FAULTS, type ChaosInfra, type FaultPlan, type FaultEvent } from './chaos/fault-injector';
export { BusProbe, CONSUMPTIONS, type Consumption } from './chaos/bus-probe';
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
