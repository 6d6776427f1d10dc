import { join } from 'node:path';
import { repoRoot } from '@pay/testing';
import { runChaos, startChaosEnv } from '@pay/devstack';
import { runScript } from '../bench/lib/harness';
import { parseChaosArgs } from './chaos-args';
import { reportRow } from './chaos-table';

/**
 * The full chaos run: N transfers, pay-ins and recon exports across M merchants while K random
 * services are SIGKILLed and restarted (consumers while they hold records), PostgreSQL is stopped,
 * its sessions cut and its primary failed over to a standby, Redis and the S3 server are restarted, the consumers are scaled out and
 * in (rebalances) and, on Kafka (--bus kafka), the broker is stopped and started again; then every
 * invariant checked, every consumer group caught up included. It runs on a private PostgreSQL
 * cluster, Redis and Kafka broker (never the machine's shared ones). Prints a table and JSON; exits 1 on any
 * violation.
 * Usage: npm run build && node dist/tools/chaos/chaos.js [transfers=10000] [payins=2000] [kills=20] [merchants=50] [seed] [--help for the fault flags]
 */
async function main(): Promise<void> {
  const args = parseChaosArgs(process.argv.slice(2));
  const env = await startChaosEnv({
    logDir: join(repoRoot(), 'tmp', 'chaos-logs'),
    appendfsync: args.appendfsync,
    transport: args.transport,
    failover: (args.faults.pgFailovers ?? 0) > 0,
    redisSentinel: (args.faults.redisFailovers ?? 0) > 0,
    kafkaNodes: args.kafkaNodes,
    nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
    env: {
      LOG_LEVEL: 'warn',
      BUS_LEASE_TTL_MS: '2000',
      PAYOUT_LEASE_MS: '2000',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_GRACE_MS: '1000',
      WEBHOOK_DISPATCH_INTERVAL_MS: '250',
    },
  });
  const kafka = env.infra.kafka ? `, Kafka on ${env.infra.kafka.brokers} (${env.infra.kafka.logFile})` : '';
  console.log(
    `private PostgreSQL on ${env.infra.postgres.port} (${env.infra.postgres.dataDir}), ${env.infra.sentinel ? `Redis behind Sentinel at ${env.infra.sentinel.url}` : `Redis on ${env.infra.redis?.port}`}${kafka}; logs in tmp/chaos-logs`,
  );
  try {
    const report = await runChaos(env.stack, env.prisma, env.receiver, {
      ...args,
      infra: env.infra,
      probe: env.probe,
      log: (l) => console.log(`${new Date().toISOString()} ${l}`),
    });
    console.table([reportRow(report)]);
    console.log(JSON.stringify(report));
    process.exitCode = report.violations.length ? 1 : 0;
  } finally {
    await env.close();
  }
}

runScript(main);
