import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { createBankRail } from '@pay/bank-rail';
import { createPgPool, createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createLogger, createValidationPipe, EnvelopeExceptionFilter, logIdMiddleware, ObjectStore, ReconExportProducer, redisConnection, requestLogger, SuccessEnvelopeInterceptor } from '@pay/platform';
import type { GatewayConfig } from './gateway.config';
import { mountBullBoard } from './ops/bull-board';
import { GatewayModule } from './gateway.module';

export interface GatewayApp {
  app: NestExpressApplication;
  prisma: PrismaClient;
  /** Closes the HTTP app, the queue connections and the database pool */
  close(): Promise<void>;
}

/** Builds the gateway (used by main.ts and by the tests, so both run the same stack). */
export async function createGatewayApp(config: GatewayConfig): Promise<GatewayApp> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const prisma = createPrismaClient(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const pool = createPgPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE, { preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
  const store = new ObjectStore(config);
  const reconProducer = new ReconExportProducer(redisConnection(config.REDIS_URL), config.QUEUE_PREFIX);
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.register({ prisma, pool, rail: createBankRail(config, pool), config, store, reconProducer, logger }), {
    logger: false,
    // Throw instead of exiting, so a wiring error reaches runService and is printed.
    abortOnError: false,
    bodyParser: false,
    // Keeps req.rawBody: acquirer notifications are verified over the exact bytes received.
    rawBody: true,
  });
  // Express's proxy-addr decides req.ip; only the configured proxies may speak for a client.
  app.set('trust proxy', config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false);
  app.disable('x-powered-by');
  app.use(logIdMiddleware);
  app.useBodyParser('json', { limit: '64kb' });
  app.useGlobalFilters(new EnvelopeExceptionFilter(logger));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalInterceptors(new SuccessEnvelopeInterceptor());
  app.use(requestLogger(logger));
  app.enableShutdownHooks();
  const closeBoard = config.ADMIN_TOKEN ? mountBullBoard(app, config.ADMIN_TOKEN, config) : async () => undefined;

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
  return {
    app,
    prisma,
    close: async () => {
      await app.close();
      await closeBoard();
      await reconProducer.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

