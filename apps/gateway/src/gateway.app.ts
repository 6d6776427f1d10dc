import type { Server } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { createBankRail, createQrisAcquirer } from '@pay/bank-rail';
import { createDatabaseClients, PgListener, type PrismaClient } from '@pay/persistence';
import {
  answerFrameworkErrors,
  createLogger,
  createValidationPipe,
  EnvelopeExceptionFilter,
  failFastRedis,
  jsonNestingExceeds,
  ObjectStore,
  pgListenMetric,
  ReconExportProducer,
  registerLogId,
  registerMethodNotAllowed,
  registerRequestLogger,
  type RailCall,
  railMetrics,
  registerRequestMetrics,
  registerSuccessEnvelope,
  stopInOrder,
  throttledWarn,
  tooDeeplyNested,
} from '@pay/platform';
import type { GatewayConfig } from './gateway.config';
import { ALL_FACES, type Face, GatewayModule } from './gateway.module';
import { METRICS_REGISTRY } from './gateway.tokens';
import type { FaceContext } from './kernel/face';
import { createGatewayListeners, refuseInternalRoutesOnPublicPort } from './kernel/http/gateway-listeners';
import { registerSessionApiHeaders } from './kernel/http/no-store.hooks';
import { registerRefusalDelay } from './kernel/rate-limit/refusal-delay';
import { refuseClimbingOutOfStaticRoots } from './kernel/static/static-paths';

const JSON_BODY_LIMIT = 64 * 1024;
/** A batch of payouts carries up to 1,000 rows (about 300 bytes each at their longest): its routes (API, dashboard) alone take more. */
const BATCH_BODY_LIMIT = 512 * 1024;
const BATCH_ROUTES = new Set([
  '/api/v1/disbursement/batch',
  '/dashboard/api/payouts/batch',
  '/dashboard/api/payouts/batch/preview',
]);

/**
 * The API's JSON bodies, parsed by Fastify's parser (which refuses __proto__ keys): an empty body
 * reads as `{}` (so validation names the missing fields), only an object or array is taken, and
 * nothing nested deeper than MAX_JSON_DEPTH (validation walks bodies recursively).
 */
function jsonBodyParser(fastify: FastifyInstance): FastifyBodyParser<Buffer> {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  return (req, body, done) => {
    if (body.length === 0) return done(null, {});
    const text = body.toString('utf8');
    const first = /^[ \t\n\r]*(.)/s.exec(text)?.[1];
    if (first !== '{' && first !== '[')
      return done(new SyntaxError('JSON body must be an object or an array'), undefined);
    if (jsonNestingExceeds(text)) return done(tooDeeplyNested(), undefined);
    parse(req, text, done);
  };
}

export interface GatewayApp {
  /** Its HTTP server (app.getHttpServer()) is the public port: the merchant API */
  app: NestFastifyApplication;
  /** The internal port: /internal (acquirer), /ops (operators, Bull Board), /metrics, /healthz, /readyz */
  internalServer: Server;
  prisma: PrismaClient;
  /** Listens on the public and the internal port */
  listen(): Promise<void>;
  /** Closes both ports, the queue connections and the database pool */
  close(): Promise<void>;
  /** The step close() is on, for the shutdown deadline's log line (runService) */
  closeStep(): string;
}

/**
 * Builds the gateway from the faces it serves (used by main.ts and by the tests, so both run the
 * same stack): the kernel's hooks, the faces' modules, hooks and mounts, on the two ports.
 */
export async function createGatewayApp(
  config: GatewayConfig,
  logger: ReturnType<typeof createLogger> = createLogger('gateway', config.logging.level),
  faces: readonly Face[] = ALL_FACES,
): Promise<GatewayApp> {
  // A request during a database outage fails fast and answers 503 (see EnvelopeExceptionFilter).
  // Its connections show as application_name 'gateway' in pg_stat_activity (databaseSection).
  const { prisma, pool } = createDatabaseClients(config.database, logger);
  const store = new ObjectStore(config.storage);
  // Requests wait on Redis only to enqueue a recon export: a fail-fast connection, so they answer 503 while it is away.
  const redis = failFastRedis(config.redis.url, logger, 'gateway');
  const reconProducer = new ReconExportProducer(redis, config.queues.prefix, logger);
  const listeners = createGatewayListeners(config.http.limits);
  // The process's one LISTEN connection (each NOTIFY wakes every listening backend): transfers
  // waiting for the ledger's decision and the token cache add their channels; started below.
  const notices = new PgListener(config.database.url, {
    onError: throttledWarn(
      logger,
      'LISTEN connection lost; reconnecting (meanwhile transfers poll for their decision and every request looks its token up)',
    ),
  });
  const adapter = new FastifyAdapter({
    // Two servers (public, internal) with the connection and timeout limits, one router.
    serverFactory: listeners.serverFactory,
    // Fastify's proxy-addr decides req.ip; only the configured proxies may speak for a client.
    trustProxy: config.http.trustedProxies.length ? config.http.trustedProxies : false,
    bodyLimit: JSON_BODY_LIMIT,
    // No Nest middleware: requests are logged and tagged by Fastify hooks.
    skipMiddie: true,
    // A path the router cannot decode: 400 in the envelope, logged as a client error.
    frameworkErrors: answerFrameworkErrors(logger),
  });
  // The rail's and the acquirer's calls counted in the registry the app makes (bound once it exists).
  const railCalls: { record?: (call: RailCall) => void } = {};
  const railHooks = { onCall: (call: RailCall) => railCalls.record?.(call) };
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.register(
      {
        prisma,
        pool,
        redis,
        rail: createBankRail(config.rail, pool, railHooks),
        acquirer: createQrisAcquirer(config.acquirer.qris, railHooks),
        config,
        store,
        reconProducer,
        notices,
        logger,
      },
      faces,
    ),
    adapter,
    {
      logger: false,
      // Throw instead of exiting, so a wiring error reaches runService and is printed.
      abortOnError: false,
      bodyParser: false,
      // Keeps req.rawBody: acquirer notifications are verified over the exact bytes received.
      rawBody: true,
    },
  );
  // The dashboard's and console's session cookies (decision 0023); nothing else reads cookies.
  await app.register(fastifyCookie);
  const fastify = app.getHttpAdapter().getInstance();
  const context: FaceContext<GatewayConfig> = { app, fastify, config, logger, redis, notices };
  registerLogId(fastify);
  registerRequestLogger(fastify, logger);
  registerRequestMetrics(fastify, app.get(METRICS_REGISTRY));
  railCalls.record = railMetrics(app.get(METRICS_REGISTRY)).onCall;
  registerSessionApiHeaders(fastify);
  // Before any other hook: an internal route on the public port is not there at all.
  refuseInternalRoutesOnPublicPort(fastify);
  // Before the faces mount their folders: no path climbs out of one (a 404, not @fastify/send's error).
  refuseClimbingOutOfStaticRoots(fastify);
  // A known path with another method: 405 before the token is asked for (only unmatched requests).
  registerMethodNotAllowed(fastify);
  // The faces' own onRequest hooks (the merchant API's early refusals and token check).
  for (const face of faces) face.hooks?.(context);
  // The route's limit wins over the parser's (registered before Nest adds its routes at init).
  fastify.addHook('onRoute', (route) => {
    if (BATCH_ROUTES.has(route.url) && route.method === 'POST') route.bodyLimit = BATCH_BODY_LIMIT;
  });
  // A flooder that ignores Retry-After is slowed to one refusal per connection per delay.
  registerRefusalDelay(fastify, config.rateLimits.refusalDelayMs);
  // JSON is the only body the API takes; any other content type is refused with 415.
  fastify.removeAllContentTypeParsers();
  app.useBodyParser('application/json', { bodyLimit: JSON_BODY_LIMIT }, jsonBodyParser(fastify));
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger));
  app.useGlobalPipes(createValidationPipe());
  // A handler's Reply becomes the success envelope (a Fastify hook: no Nest interceptor runs on the merchant API, decision 0017).
  registerSuccessEnvelope(fastify);
  // No app.enableShutdownHooks(): runService owns SIGTERM and calls close(), which runs Nest's shutdown hooks;
  // Nest's own handler would re-raise the signal after closing and race runService's exit(0).
  // What the faces serve outside Nest: Bull Board, the web bundles, the docs page.
  const unmounts: (() => Promise<void>)[] = [];
  for (const face of faces) {
    const unmount = await face.mount?.(context);
    if (unmount) unmounts.push(unmount);
  }
  await app.init();
  await fastify.ready();
  pgListenMetric(app.get(METRICS_REGISTRY), notices);
  await notices.start();
  const internalServer = listeners.internalServer();
  const closing = stopInOrder([
    [
      'ports (the requests in flight finish)',
      async () => {
        // Fastify closes the public server; the internal one is ours (idle keep-alive sockets are
        // closed at once, requests in flight finish).
        const internalClosed = internalServer.listening
          ? new Promise<void>((resolve) => internalServer.close(() => resolve()))
          : Promise.resolve();
        internalServer.closeIdleConnections();
        await app.close();
        await internalClosed;
      },
    ],
    ['Bull Board', async () => void (await Promise.all(unmounts.map((unmount) => unmount())))],
    ['LISTEN connection', () => notices.stop()],
    ['recon export queue', () => reconProducer.close()],
    ['redis', () => redis.disconnect()],
    ['database (Prisma)', () => prisma.$disconnect()],
    ['database pool', () => pool.end()],
  ]);
  return {
    app,
    internalServer,
    prisma,
    listen: async () => {
      await app.listen(config.http.public.port, config.http.public.host);
      await new Promise<void>((resolve, reject) => {
        internalServer.once('error', reject);
        internalServer.listen(config.http.internal.port, config.http.internal.host, () => resolve());
      });
    },
    close: closing.stop,
    closeStep: closing.stopStep,
  };
}
