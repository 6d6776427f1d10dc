import 'reflect-metadata';
import { assertDatabaseReachable } from '@pay/persistence';
import { createLogger, loadConfig, runService } from '@pay/platform';
import { createGatewayApp } from './gateway.app';
import { gatewayConfigSchema } from './gateway.config';

runService('gateway', async () => {
  const config = loadConfig(gatewayConfigSchema);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const gateway = await createGatewayApp(config);
  const { app, prisma } = gateway;
  await assertDatabaseReachable(prisma, config.DATABASE_URL);
  await app.listen(config.GATEWAY_PORT, config.GATEWAY_HOST);
  logger.info({ port: config.GATEWAY_PORT }, 'gateway listening');
  return {
    stop: () => gateway.close(),
  };
});
