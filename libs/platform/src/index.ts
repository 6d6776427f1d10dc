export { ConfigError, loadConfig, port, bool, positiveInt, postgresUrl, redisUrl } from './config/config';
export { configSection } from './config/setting-meta';
export {
  opsEnvShape,
  opsSection,
  type OpsConfig,
  queueEnvShape,
  queueSection,
  type QueueConfig,
  redisEnvShape,
  redisSection,
  type RedisConfig,
  refuseLoopbackInProduction,
  serviceEnvShape,
  serviceSection,
  webhookEnvShape,
} from './config/service.config';
export { bindHost, isLoopbackHost } from './config/bind-host';
export { createLogger, newLogId, runWithLogId, currentLogId, type Logger } from './logging/logger';
export { ApiError } from './errors/api-error';
export { EnvelopeExceptionFilter } from './errors/envelope.filter';
export { registerLogId, registerRequestLogger, requestLogId } from './http/log-id.hooks';
export { registerRequestMetrics, UNMATCHED_ROUTE } from './http/request-metrics.hooks';
export { registerMethodNotAllowed } from './http/method-not-allowed.hooks';
export { answerFrameworkErrors } from './http/framework-errors';
export {
  type ReadinessCheck,
  type ReadinessReport,
  runReadiness,
  createMetricsRegistry,
  startOpsServer,
} from './health/readiness';
export { runService, type RunningService } from './bootstrap/run-service';
export { serviceStop, stopInOrder, type OrderedStop, type ServiceParts, type Step } from './bootstrap/stop-in-order';
export { REQUIRED_NODE_VERSION, requireNodeVersion } from './bootstrap/node-version';
export { SERVICE_NODE_FLAGS } from './bootstrap/node-flags';
export { registerSuccessEnvelope, Reply } from './http/success-envelope.hooks';
export { createValidationPipe, type FieldError, fieldErrors, fieldLine, validationError } from './http/validation.pipe';
export { jsonNestingExceeds, MAX_JSON_DEPTH, refuseControlCharacters, tooDeeplyNested } from './http/json-input';
export { checkWebhookTarget, safeLookup, type WebhookTargetPolicy, WebhookTargetRefused } from './net/webhook-target';
export { ObjectStore } from './storage/object-store';
export { storageConfigSchema, storageEnvShape, storageSection, type StorageConfig } from './storage/storage.config';
export {
  isPublishedStorageCredential,
  PUBLISHED_STORAGE_CREDENTIALS,
  refusePublishedStorageCredentials,
} from './storage/storage-credentials';
export { ReconExportProducer, RECON_EXPORT_ATTEMPTS } from './queues/recon-export.producer';
export { createRedis, isSentinelUrl, sentinelOptions } from './queues/redis-url';
export {
  BULLMQ_MAX_BLOCK_MS,
  failFastRedis,
  pingRedisOnce,
  REDIS_SOCKET_TIMEOUT_MS,
  redisReadinessCheck,
  redisSocketTimeout,
  waitForRedis,
} from './queues/redis-connection';
export { errorText, roundFailureLog, throttledWarn, warnOnError } from './logging/throttled-warn';
export { waitForDependency, type WaitOptions } from './bootstrap/wait-for-dependency';
export { IsAmount } from './http/is-amount.decorator';
export { IsNotifyUrl, isNotifyUrl, NOTIFY_URL_MAX_LENGTH } from './http/is-notify-url.decorator';
export {
  classifyFault,
  databaseInputRefusal,
  isMisconfiguration,
  isTransientFault,
  isPermanentFault,
  TransientError,
  PermanentError,
  type FaultKind,
} from './faults/fault';
export { deadLetterMetric } from './health/dead-letter.metric';
export { pgListenMetric } from './health/pg-listen.metric';
export {
  outboxBacklogMetric,
  type OutboxBacklogOptions,
  type OutboxTopicBacklog,
} from './health/outbox-backlog.metric';
export { pendingPayoutsMetric, type PendingPayouts } from './health/pending-payouts.metric';
export {
  type RailCall,
  railMetrics,
  sourceBalanceMetric,
  type UnknownPayouts,
  unknownPayoutsMetric,
} from './health/rail-metrics';
export {
  busConsumerMetrics,
  type BusConsumerMetrics,
  type BusConsumerMetricsOptions,
} from './health/bus-consumer.metric';
export { WakeLoop, type RoundResult, type WakeLoopOptions } from './loops/wake-loop';
export { waitAtMost, withTimeout } from './loops/timeouts';
