import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsumerGroup, Topic } from '@pay/contracts';
import { freePort, KafkaBroker, repoRoot, waitFor } from '@pay/testing';
import { type Consumer, Kafka, logLevel } from 'kafkajs';

/**
 * A ledger whose Kafka consumer crashes for good (here: the broker, restarted with a
 * group.max.session.timeout.ms under the ledger's session timeout, refuses it back into its
 * group, INVALID_SESSION_TIMEOUT, which kafkajs never retries) stops cleanly and exits 1, so
 * Kubernetes restarts it and alerts, instead of answering ready while consuming nothing (its
 * /readyz fails on the bus check meanwhile: kafka.transport.int-spec.ts).
 * On a broker of its own: its config is changed, which no other suite may see.
 */
const onKafka = process.env.E2E_BUS_TRANSPORT === 'kafka';
(onKafka ? describe : describe.skip)('a Kafka consumer that crashes for good (process, own broker)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-crash-'));
  let broker: KafkaBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    broker = await KafkaBroker.start({ dir, heapMb: 512 });
    kafka = new Kafka({ brokers: [broker.brokers], clientId: 'e2e-crash', logLevel: logLevel.NOTHING });
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
    let intruder: Consumer | undefined;
    const ready = async () => (await fetch(`http://127.0.0.1:${opsPort}/readyz`).catch(() => null))?.status === 200;
    try {
      await waitFor(ready, 60_000, 'ledger ready');
      // Ready comes before the bus consumer has joined; the broker must go only once the ledger consumes.
      await waitFor(async () => output.includes('"msg":"ledger started"'), 60_000, 'ledger started');

      // The ledger's member stays known across the restart; a second member makes the group rebalance, and the
      // ledger's JoinGroup (10 s session) is then refused.
      await broker.stop();
      appendFileSync(join(dir, 'server.properties'), 'group.max.session.timeout.ms=8000\n');
      await broker.restart();
      intruder = kafka.consumer({ groupId: ConsumerGroup.Ledger, sessionTimeout: 6_000 });
      await intruder.connect();
      await intruder.subscribe({ topic: Topic.LedgerCommands });
      await intruder.run({ eachMessage: async () => undefined });

      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise<'still running'>((r) => (timer = setTimeout(() => r('still running'), 60_000)))]);
      clearTimeout(timer);

      expect(code).toBe(1);
      expect(output).toMatch(/kafka consumer CRASHED for good/);
      expect(output).toMatch(/failed: kafka consumer of ledger\.commands\.v1 \(group ledger\) stopped for good: .*session timeout is not within the range/);
    } finally {
      await intruder?.disconnect();
      if (ledger.exitCode === null) ledger.kill('SIGKILL');
    }
  }, 180_000);
});
