import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createBankRail } from '@pay/bank-rail';
import { createDatabaseClients, type PrismaClient } from '@pay/persistence';
import { createLogger, createValidationPipe, EnvelopeExceptionFilter, failFastRedis, jsonNestingExceeds, ObjectStore, ReconExportProducer, registerLogId, registerMethodNotAllowed, registerRequestLogger, SuccessEnvelopeInterceptor, tooDeeplyNested } from '@pay/platform';
import type { GatewayConfig } from './gateway.config';
import { mountBullBoard } from './ops/bull-board';
import { GatewayModule } from './gateway.module';

const JSON_BODY_LIMIT = 64 * 1024;

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
    if (first !== '{' && first !== '[') return done(new SyntaxError('JSON body must be an object or an array'), undefined);
    if (jsonNestingExceeds(text)) return done(tooDeeplyNested(), undefined);
    parse(req, text, done);
  };
}

export interface GatewayApp {
  app: NestFastifyApplication;
  prisma: PrismaClient;
  /** Closes the HTTP app, the queue connections and the database pool */
  close(): Promise<void>;
}

/** Builds the gateway (used by main.ts and by the tests, so both run the same stack). */
export async function createGatewayApp(config: GatewayConfig, logger: ReturnType<typeof createLogger> = createLogger('gateway', config.LOG_LEVEL)): Promise<GatewayApp> {
  // A request during a database outage fails fast and answers 503 (see EnvelopeExceptionFilter).
  const { prisma, pool } = createDatabaseClients(config, logger);
  const store = new ObjectStore(config);
  // Requests wait on Redis only to enqueue a recon export: a fail-fast connection, so they answer 503 while it is away.
  const redis = failFastRedis(config.REDIS_URL, logger, 'gateway');
  const reconProducer = new ReconExportProducer(redis, config.QUEUE_PREFIX, logger);
  const adapter = new FastifyAdapter({
    // Fastify's proxy-addr decides req.ip; only the configured proxies may speak for a client.
    trustProxy: config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false,
    bodyLimit: JSON_BODY_LIMIT,
    // No Nest middleware: requests are logged and tagged by Fastify hooks.
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.register({ prisma, pool, redis, rail: createBankRail(config, pool), config, store, reconProducer, logger }), adapter, {
    logger: false,
    // Throw instead of exiting, so a wiring error reaches runService and is printed.
    abortOnError: false,
    bodyParser: false,
    // Keeps req.rawBody: acquirer notifications are verified over the exact bytes received.
    rawBody: true,
  });
  const fastify = app.getHttpAdapter().getInstance();
  registerLogId(fastify);
  registerRequestLogger(fastify, logger);
  registerMethodNotAllowed(fastify);
  // JSON is the only body the API takes; any other content type is refused with 415.
  fastify.removeAllContentTypeParsers();
  app.useBodyParser('application/json', { bodyLimit: JSON_BODY_LIMIT }, jsonBodyParser(fastify));
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalInterceptors(new SuccessEnvelopeInterceptor());
  // No app.enableShutdownHooks(): runService owns SIGTERM and calls close(), which runs Nest's shutdown hooks;
  // Nest's own handler would re-raise the signal after closing and race runService's exit(0).
  const closeBoard = config.ADMIN_TOKEN ? await mountBullBoard(fastify, config.ADMIN_TOKEN, { connection: redis, prefix: config.QUEUE_PREFIX, logger }) : async () => undefined;

  if (config.SWAGGER_ENABLED) {
    const document = SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Merchant Pay-in and Disbursement API')
        .setDescription('QRIS pay-in, balance, disbursement and reconciliation. Every response carries a logId. See README for the full reference.')
        .setVersion('v1')
        .addApiKey({ type: 'apiKey', in: 'header', name: 'token' }, 'token')
        .build(),
    );
    SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
  }
  await app.init();
  await fastify.ready();
  return {
    app,
    prisma,
    close: async () => {
      await app.close();
      await closeBoard();
      await reconProducer.close();
      redis.disconnect();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

