import type { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  type BusConfig,
  BusErrorFilter,
  BusServer,
  type BusServerOptions,
  type BusTransport,
  busReadinessCheck,
  createServiceTransport,
  type OutboxConfig,
  OutboxRelay,
  TopicReadiness,
  watchBusFailure,
} from '@pay/bus';
import { Topic } from '@pay/contracts';
import {
  createDatabaseClients,
  type DatabaseConfig,
  outboxChannel,
  PgListener,
  PgOutboxStore,
  type PrismaClient,
  startOpsAndWait,
} from '@pay/persistence';
import {
  createLogger,
  createMetricsRegistry,
  type Logger,
  type OpsConfig,
  outboxBacklogMetric,
  pgListenMetric,
  type ReadinessCheck,
  type RunningService,
  serviceStop,
  type Step,
  throttledWarn,
} from '@pay/platform';
import type { Pool } from 'pg';
import type { Registry } from 'prom-client';

/** The settings every bus service reads here; each app's config has its own besides. */
export interface BusServiceConfig {
  logging: { level: string };
  shutdown: { timeoutMs: number };
  database: DatabaseConfig;
  ops: OpsConfig;
  bus: BusConfig;
}

export interface BusServiceOptions {
  /** `ledger`, `payout`, `workers`: names its logger, its metrics and its Redis readiness connection */
  name: string;
  config: BusServiceConfig;
  /** The topics it publishes to or consumes: not ready until they exist */
  topics: readonly string[];
  /** Readiness checks of its own, reported before the bus's */
  checks?: ReadinessCheck[];
  /** The Redis readiness checks and start-up waits for; default: the bus's, on Redis Streams */
  redisUrl?: string;
  /** The warn line while the LISTEN connection is away (what waits for a poll meanwhile) */
  listenLost: string;
  /** Fields of the `<name> started` line besides opsPort */
  startedLog?: Record<string, unknown>;
}

/** What the service's own start is given: the parts every bus service has, made once here. */
export interface BusServiceContext {
  logger: Logger;
  prisma: PrismaClient;
  pool: Pool;
  registry: Registry;
  transport: BusTransport;
  /** The process's one LISTEN connection (each NOTIFY wakes every listening backend): add channels, then startListening */
  listener: PgListener;
  /** Starts the LISTEN connection, its metrics registered */
  startListening(): Promise<void>;
  /** An outbox relay on the transport, woken for `wakeTopics` through the LISTEN connection; not started */
  outboxRelay(outbox: OutboxConfig, wakeTopics: string[]): OutboxRelay;
  /** A Nest microservice consuming the bus for the module's controllers; not listening yet */
  consumer(module: DynamicModule, server: Omit<BusServerOptions, 'transport'>): Promise<INestMicroservice>;
}

/** The service's own steps of the stop (see serviceStop), in order. */
export interface BusServiceParts {
  /** After readiness turns 503, before the bus closes: its consumers and loops finish the work in hand */
  stop: Step[];
  /** After the ops port, before the database */
  beforeDatabase?: Step[];
}

/**
 * The start of a service that works off the bus (ledger, payout, workers): its logger, its two
 * database pools, its metrics, the bus transport (a consumer that stops for good fails the
 * service), the readiness of its topics, and the ops port, up before PostgreSQL and Redis are
 * waited for (a pod starting during a failover is not restarted by its liveness probe). Then
 * `start` builds and starts what is the service's own; the stop runs its steps in the order
 * every such service stops in (serviceStop).
 */
export async function startBusService(
  options: BusServiceOptions,
  start: (context: BusServiceContext) => Promise<BusServiceParts>,
): Promise<RunningService & { opsPort: number }> {
  const { name, config } = options;
  const logger = createLogger(name, config.logging.level);
  const { prisma, pool } = createDatabaseClients(config.database, logger);
  const registry = createMetricsRegistry(name);
  const busFailure = watchBusFailure();
  const transport = createServiceTransport(config.bus, { logger, registry, onFailure: busFailure.onFailure });
  const topics = new TopicReadiness(transport, options.topics, { logger });
  topics.start();
  const ops = await startOpsAndWait(name, config, {
    prisma,
    registry,
    redisUrl: options.redisUrl ?? (config.bus.kind === 'redis-streams' ? config.bus.redisUrl : undefined),
    logger,
    checks: [...(options.checks ?? []), busReadinessCheck(transport), topics],
  });
  const listener = new PgListener(config.database.url, { onError: throttledWarn(logger, options.listenLost) });

  const parts = await start({
    logger,
    prisma,
    pool,
    registry,
    transport,
    listener,
    startListening: async () => {
      pgListenMetric(registry, listener);
      await listener.start();
    },
    outboxRelay: (outbox, wakeTopics) => {
      const store = new PgOutboxStore(pool);
      outboxBacklogMetric(registry, store, { topics: Object.values(Topic), logger });
      const relay = new OutboxRelay({
        store,
        transport,
        batchSize: outbox.batchSize,
        pollIntervalMs: outbox.pollIntervalMs,
        lingerMs: outbox.lingerMs,
        wakeTopics,
        logger,
      });
      listener.listen(outboxChannel((topic) => relay.notify(topic)));
      return relay;
    },
    consumer: async (module, server) => {
      const app = await NestFactory.createMicroservice(module, {
        strategy: new BusServer({ transport, ...server }),
        logger: false,
        abortOnError: false,
      });
      app.useGlobalFilters(new BusErrorFilter());
      return app;
    },
  });
  logger.info({ opsPort: config.ops.port, ...options.startedLog }, `${name} started`);

  return {
    opsPort: (ops.server.address() as { port: number }).port,
    failure: busFailure.failure,
    shutdownTimeoutMs: config.shutdown.timeoutMs,
    ...serviceStop({ ops, topics, transport, prisma, pool }, parts.stop, parts.beforeDatabase),
  };
}
