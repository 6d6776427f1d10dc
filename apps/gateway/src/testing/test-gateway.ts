import { loadConfig } from '@pay/platform';
import { createGatewayApp, type GatewayApp } from '../gateway.app';
import { gatewayConfigSchema } from '../gateway.config';

/** What the integration specs build a gateway of their own with: through this one module, not the app's files. */
export { createGatewayApp, type GatewayApp, gatewayConfigSchema };

/**
 * A gateway for an integration spec, on the run's database, Redis and key prefix (the global
 * set-up's), with quiet logs and a sandbox rail without latency; `env` adds or overrides settings,
 * `logger` replaces the service's (a spec that reads the log lines). Every spec signs in from
 * 127.0.0.1, the run's specs at once: the per-address sign-in limit is raised out of their way
 * (the specs of sign-in's limits set their own).
 */
export function startTestGateway(
  env: Record<string, string | undefined> = {},
  logger?: Parameters<typeof createGatewayApp>[1],
): Promise<GatewayApp> {
  return createGatewayApp(
    loadConfig(gatewayConfigSchema, {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL,
      QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}bull`,
      LOG_LEVEL: 'fatal',
      RAIL_SANDBOX_LATENCY_MS: '0',
      SIGN_IN_PER_ADDRESS_PER_MINUTE: '100000',
      ...env,
    }),
    logger,
  );
}
