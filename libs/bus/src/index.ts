// Public API of @pay/bus. Internals (partition workers, lease scripts, codecs) stay private on purpose.
export type {
  BusTransport,
  TopicCheck,
  ConsumerLag,
  IncomingRecord,
  OutgoingRecord,
  RecordHandler,
  SubscribeOptions,
  Subscription,
} from './transport/bus-transport.interface';
export {
  deadLetterTopic,
  DLQ_HEADERS,
  RELAXED_IDLE_READ_WAIT_MS,
  STANDBY_GATHER_MS,
} from './transport/bus-transport.interface';
export type { BusLogger } from './logging/bus-logger.interface';
export type { RetryBackoff } from './delivery/delivery.policy';
export { partitionForKey } from './partitioner/murmur2.partitioner';

export { busConfigSchema } from './config/bus-config.schema';
export type { BusConfig, KafkaBusConfig, RedisStreamsBusConfig } from './config/bus-config.schema';
export { createTransport } from './transport.factory';
export { createServiceTransport } from './service-transport';
export type { CreateTransportDeps } from './transport.factory';
export { RedisStreamsTransport } from './redis-streams/redis-streams.transport';
export type {
  RedisConnectionRole,
  RedisStreamsTransportDeps,
  RedisStreamsTransportOptions,
} from './redis-streams/redis-streams.transport';
export { KafkaTransport } from './kafka/kafka.transport';
export { createTopicsAndWait, type KafkaTopicSpec } from './kafka/kafka-topics';
export { consumerGroupLag } from './kafka/kafka-lag';
export { busReadinessCheck, watchBusFailure } from './health/bus-failure';
export { TopicReadiness, withDeadLetterTopics, type TopicReadinessOptions } from './health/topic-readiness';
export type { ConsumerEvent, KafkaTransportDeps, KafkaTransportOptions } from './kafka/kafka.transport';

export { BusServer } from './nest/bus.server';
export { BusErrorFilter } from './nest/bus-error.filter';
export type { BusServerOptions } from './nest/bus.server';
export { BusContext } from './nest/bus.context';
export { BUS_TRANSPORT, BusPublisher } from './nest/bus.publisher';
export type { BusMessage } from './nest/bus.publisher';

export { OutboxRelay, OUTBOX_ID_HEADER } from './outbox/outbox.relay';
export type { OutboxRelayOptions } from './outbox/outbox.relay';
export type { OutboxRow, OutboxStore } from './outbox/outbox-store.interface';
export { busEnvShape, refineBusEnv, busConfigFromEnv } from './config/bus-env';
export { outboxEnvShape, outboxSection, type OutboxConfig } from './config/outbox-env';
export { DEAD_LETTER_LOG_MESSAGE } from './delivery/dead-letter';
export type { DeadLetterListener, DeadLetterNotice } from './delivery/dead-letter';
