import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadLetterTopic } from '@pay/bus';
import { Topic } from '@pay/contracts';
import { freePort, KafkaBroker, repoRoot, waitFor } from '@pay/testing';
import { Kafka, logLevel } from 'kafkajs';

/**
 * A ledger whose Kafka consumer crashes for good (here: its dead-letter topic refuses the
 * record, MESSAGE_TOO_LARGE, which kafkajs never retries) stops cleanly and exits 1, so
 * Kubernetes restarts it and alerts, instead of answering ready while consuming nothing (its
 * /readyz fails on the bus check meanwhile: kafka.transport.int-spec.ts).
 * On a broker of its own: the topic's config is changed, which no other suite may see.
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
    const admin = kafka.admin();
    await admin.connect();
    await admin.alterConfigs({
      validateOnly: false,
      resources: [{ type: 2 /* TOPIC */, name: deadLetterTopic(Topic.LedgerCommands), configEntries: [{ name: 'max.message.bytes', value: '200' }] }],
    });
    await admin.disconnect();

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
    const ready = async () => (await fetch(`http://127.0.0.1:${opsPort}/readyz`).catch(() => null))?.status === 200;
    try {
      await waitFor(ready, 60_000, 'ledger ready');

      // Not a ledger command: permanent, so dead-lettered at once, and the DLQ refuses it.
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: Topic.LedgerCommands, messages: [{ key: '1', value: `{not json ${'x'.repeat(400)}` }] });
      await producer.disconnect();

      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise<'still running'>((r) => (timer = setTimeout(() => r('still running'), 60_000)))]);
      clearTimeout(timer);

      expect(code).toBe(1);
      expect(output).toMatch(/kafka consumer CRASHED for good/);
      expect(output).toMatch(/failed: kafka consumer of ledger\.commands\.v1 \(group ledger\) stopped for good/);
    } finally {
      if (ledger.exitCode === null) ledger.kill('SIGKILL');
    }
  }, 180_000);
});
