import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { merchantContract, opsContract, registerContract, repoRoot } from '@pay/testing';
import { LocalStack, testStackBus, testS3 } from '@pay/devstack';

/**
 * Where the journeys run. With E2E_BASE_URL set: against that deployment (docker-compose, a
 * cluster), authenticated as an operator with E2E_ADMIN_TOKEN on its internal port
 * (E2E_INTERNAL_URL; default: the host of E2E_BASE_URL on port 3001, GATEWAY_INTERNAL_PORT's
 * default. A cluster's ingress never routes it: e.g. `kubectl port-forward svc/gateway 3001:internal`).
 * Without it: against a local stack this suite starts (the README's test command).
 */
export interface Target {
  /** The merchant API (the gateway's public port) */
  baseUrl: string;
  /** The ops API (the gateway's internal port) */
  internalUrl: string;
  adminToken: string;
  /** Where the stack can reach a webhook receiver this suite starts; null: webhook journey not run */
  receiver: { host: string; port: number } | null;
  stop(): Promise<void>;
}

export async function resolveTarget(): Promise<Target> {
  const remote = process.env.E2E_BASE_URL;
  if (remote) {
    const adminToken = process.env.E2E_ADMIN_TOKEN;
    if (!adminToken)
      throw new Error('E2E_ADMIN_TOKEN is required with E2E_BASE_URL (the ADMIN_TOKEN of the deployment)');
    const host = process.env.E2E_RECEIVER_HOST;
    const internal = new URL(process.env.E2E_INTERNAL_URL ?? remote);
    if (!process.env.E2E_INTERNAL_URL) internal.port = '3001';
    const baseUrl = remote.replace(/\/$/, '');
    // The deployment's answers are checked against docs/openapi.json and docs/ops-openapi.json too (a local stack registers itself).
    const undo = [
      registerContract(baseUrl, merchantContract(repoRoot())),
      registerContract(internal.origin, opsContract(repoRoot())),
    ];
    const unregister = () => undo.forEach((u) => u());
    return {
      baseUrl,
      internalUrl: internal.origin,
      adminToken,
      receiver: host ? { host, port: Number(process.env.E2E_RECEIVER_PORT ?? 4000) } : null,
      stop: async () => unregister(),
    };
  }
  const adminToken = `e2e_${randomBytes(24).toString('hex')}`;
  const stack = await LocalStack.start({
    databaseUrl: process.env.DATABASE_URL as string,
    redisUrl: process.env.TEST_REDIS_URL as string,
    busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}jrn:`,
    bus: testStackBus(),
    s3: testS3(),
    logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}jrn`),
    env: {
      ADMIN_TOKEN: adminToken,
      PAYOUT_POLL_INTERVAL_MS: '100',
    },
  });
  return {
    baseUrl: stack.gatewayUrl,
    internalUrl: stack.internalUrl,
    adminToken,
    receiver: { host: '127.0.0.1', port: 0 },
    stop: () => stack.stop(),
  };
}
