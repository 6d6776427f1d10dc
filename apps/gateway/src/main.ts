import 'reflect-metadata';
import { waitForDatabase } from '@pay/persistence';
import { createLogger, loadConfig, runService } from '@pay/platform';
import { createGatewayApp } from './gateway.app';
import { ALL_FACES } from './gateway.module';
import { gatewayConfigSchema } from './gateway.config';

runService('gateway', async () => {
  const config = loadConfig(gatewayConfigSchema);
  const logger = createLogger('gateway', config.logging.level);
  // Every face in this one deployable; a deployable of one face would pass a list of one.
  const gateway = await createGatewayApp(config, logger, ALL_FACES);
  const { prisma } = gateway;
  // Listening first: /healthz answers (no restart by the liveness probe), /readyz and requests
  // answer 503 while the database is still away; a wrong DATABASE_URL still exits 1 here.
  await gateway.listen();
  logger.info({ port: config.http.public.port, internalPort: config.http.internal.port }, 'gateway listening');
  await waitForDatabase(prisma, config.database.urlAsSet, logger);
  return {
    stop: () => gateway.close(),
    stopStep: () => gateway.closeStep(),
    shutdownTimeoutMs: config.shutdown.timeoutMs,
  };
});
