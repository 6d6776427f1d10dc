import pino from 'pino';
import { loadSimulatorConfig } from './config';
import { buildSimulator } from './server';
import { Store } from './store';

/** The SNAP provider simulator as its own process: a bank and a QRIS acquirer that check everything. */
async function main(): Promise<void> {
  const logger = pino({ name: 'snap-simulator', level: process.env.LOG_LEVEL ?? 'info' });
  let config;
  try {
    config = loadSimulatorConfig();
  } catch (err) {
    logger.fatal((err as Error).message);
    process.exit(1);
  }
  const store = await Store.open(config.databaseUrl, config.schema, config.source);
  const { app } = await buildSimulator(config, store, logger);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, prefix: config.prefix, schema: config.schema }, 'SNAP simulator listening');
  const stop = async () => {
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
