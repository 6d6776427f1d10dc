import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@pay/testing';
import { freePort, KafkaBroker } from '@pay/devstack';

/**
 * A ledger whose Kafka consumer is refused for good (here: a broker whose
 * group.min.session.timeout.ms is above the ledger's session timeout refuses it into its group,
 * INVALID_SESSION_TIMEOUT, a misconfiguration no retry fixes) logs why and exits 1, so Kubernetes
 * restarts it and alerts, instead of answering ready while consuming nothing (its /readyz fails
 * on the bus check meanwhile: kafka.transport.int-spec.ts). A consumer kafkajs gives up on after a
 * broker outage is replaced instead (the chaos run's broker restarts).
 * On a broker of its own: its config is changed, which no other suite may see.
 */
const onKafka = process.env.E2E_BUS_TRANSPORT === 'kafka';
(onKafka ? describe : describe.skip)('a Kafka consumer that crashes for good (process, own broker)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-crash-'));
  let broker: KafkaBroker;

  beforeAll(async () => {
    broker = await KafkaBroker.start({ dir, heapMb: 512 });
    await broker.stop();
    appendFileSync(join(dir, 'server.properties'), 'group.min.session.timeout.ms=20000\n');
    await broker.restart();
  }, 120_000);
  afterAll(async () => {
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs why and exits 1', async () => {
    const opsPort = await freePort();
    const ledger = spawn(process.execPath, [join(repoRoot(), 'dist', 'apps', 'ledger', 'src', 'main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: process.env.DATABASE_URL as string,
        REDIS_URL: process.env.TEST_REDIS_URL as string,
        OPS_PORT: String(opsPort),
        BUS_TRANSPORT: 'kafka',
        KAFKA_BROKERS: broker.brokers,
        KAFKA_SESSION_TIMEOUT_MS: '10000',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    ledger.stdout.on('data', (d: Buffer) => (output += d.toString()));
    ledger.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => ledger.once('exit', (code) => resolve(code)));
    try {
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        exited,
        new Promise<'still running'>((r) => (timer = setTimeout(() => r('still running'), 90_000))),
      ]);
      clearTimeout(timer);

      expect(code).toBe(1);
      expect(output).toMatch(/kafka consumer CRASHED for good/);
      expect(output).toMatch(
        /failed: kafka consumer of ledger\.commands\.v1 \(group ledger\) stopped for good: .*session timeout is not within the range/,
      );
    } finally {
      if (ledger.exitCode === null) ledger.kill('SIGKILL');
    }
  }, 180_000);
});
