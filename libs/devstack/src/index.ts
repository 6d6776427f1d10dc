export {
  LocalStack,
  SERVICES,
  type ServiceName,
  type StackOptions,
  type StackBus,
  type UnexpectedExit,
} from './stack/local-stack';
export { freePort } from './stack/free-port';
export { testBus, testStackBus, testTransport, unacknowledgedRecords, type TestBus } from './stack/test-bus';
export { S3Proxy, S3PROXY_VERSION, type S3ProxyOptions } from './s3/s3-proxy';
export { checkSignatures, SIGNATURES_ENFORCED, type SignatureCheckResults } from './s3/signature-checks';
export type { S3Server } from './s3/s3-server';
export { testS3 } from './s3/test-s3';
export {
  KafkaBroker,
  KAFKA_TOPICS,
  KAFKA_PARTITIONS,
  KAFKA_VERSION,
  type KafkaBrokerOptions,
  type KafkaBrokerSecurity,
} from './infra/kafka-broker';
export { KafkaCluster } from './infra/kafka-cluster';
export { PrivatePostgres } from './infra/private-postgres';
export { PrivateRedis } from './infra/private-redis';
export { SilentRelay } from './infra/silent-relay';
export { createTestPki, type TestPki } from './infra/test-pki';
export { runChaos, type ChaosOptions, type ChaosReport } from './chaos/chaos-run';
export { startChaosEnv, type ChaosEnv, type ChaosEnvOptions } from './chaos/chaos-env';
export { NO_FAULTS, type ChaosInfra, type FaultPlan, type FaultEvent } from './chaos/fault-injector';
export { BusProbe, CONSUMPTIONS, type Consumption } from './chaos/bus-probe';
export { SnapSimulator, startSnapSimulator, type SnapSimulatorOptions } from './snap/snap-simulator';
export { payinsPaidAtSimulator, type SimulatorPayin, simulatorAcquirerAndBank } from './snap/simulator-payins';
