import { BusConfig } from './config/bus-config.schema';
import { KafkaTransport, type KafkaTransportDeps } from './kafka/kafka.transport';
import type { DeadLetterListener } from './delivery/dead-letter';
import { BusLogger } from './logging/bus-logger.interface';
import { RedisStreamsTransport } from './redis-streams/redis-streams.transport';
import { BusTransport } from './transport/bus-transport.interface';

export interface CreateTransportDeps {
  logger?: BusLogger;
  onDeadLetter?: DeadLetterListener;
  /** Told once when consuming has stopped for good (Kafka only; see BusTransport.failure). */
  onFailure?: (error: Error) => void;
  /** Kafka only: each (re)join of a consumer group (a metric). */
  onRebalance?: KafkaTransportDeps['onRebalance'];
  /** Kafka only: each consumer crash (a metric). */
  onCrash?: KafkaTransportDeps['onCrash'];
}

/** Picks the transport from validated config; callers parse with `busConfigSchema` first (nothing here reads env). */
export function createTransport(config: BusConfig, deps: CreateTransportDeps = {}): BusTransport {
  switch (config.kind) {
    case 'redis-streams': {
      const { kind: _kind, ...options } = config;
      return new RedisStreamsTransport(options, deps);
    }
    case 'kafka': {
      const { kind: _kind, ...options } = config;
      return new KafkaTransport(options, deps);
    }
  }
}
