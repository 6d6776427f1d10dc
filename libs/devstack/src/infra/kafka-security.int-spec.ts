import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  busConfigFromEnv,
  busEnvShape,
  type BusTransport,
  createTransport,
  DLQ_HEADERS,
  type IncomingRecord,
  type KafkaBusConfig,
  refineBusEnv,
} from '@pay/bus';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import { uniqueName, waitFor } from '@pay/testing';
import { KafkaBroker } from './kafka-broker';
import { createTestPki, type TestPki } from './test-pki';

/** The services' own path: settings parsed and refused as at start-up, then the transport they build from them. */
const envSchema = z.object({ NODE_ENV: z.string().optional(), ...busEnvShape }).superRefine(refineBusEnv);
const USERS = { ledger: 'ledger-secret', payout: 'payout-secret' };

/** An unsigned JWS as Kafka's unsecured OAUTHBEARER validator takes it (it checks sub and exp, not a signature). */
function unsecuredJws(sub: string, expiresInS: number): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none' })}.${part({ sub, iat: now - 120, exp: now + expiresInS })}.`;
}

interface LogLine {
  level: string;
  obj: Record<string, unknown>;
  msg: string;
}

// Runs with the Kafka suites (tools/test.sh sets KAFKA_BROKERS); starts a broker of its own with TLS and SASL listeners.
(process.env.KAFKA_BROKERS ? describe : describe.skip)(
  'Kafka transport on a managed-style cluster (TLS, SASL, prefixes; own broker)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafka-secure-'));
    let pki: TestPki;
    let broker: KafkaBroker;
    const transports: BusTransport[] = [];

    beforeAll(async () => {
      pki = await createTestPki(join(dir, 'pki'), 'ledger');
      broker = await KafkaBroker.start({
        dir: join(dir, 'broker'),
        heapMb: 512,
        // Clients authenticate again every 15 s: a password changed on the cluster reaches live connections.
        security: {
          caFile: pki.caFile,
          certFile: pki.serverCertFile,
          keyFile: pki.serverKeyFile,
          scramUsers: USERS,
          reauthMs: 15_000,
        },
      });
    }, 180_000);
    afterEach(async () => {
      await Promise.all(transports.splice(0).map((t) => t.close().catch(() => undefined)));
    });
    afterAll(async () => {
      await broker?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    function transport(
      env: Record<string, string>,
      deps: { onFailure?: (e: Error) => void; logs?: LogLine[] } = {},
    ): BusTransport {
      const config = busConfigFromEnv(
        envSchema.parse({ BUS_TRANSPORT: 'kafka', BUS_PARTITIONS: '3', ...env }),
        'ledger',
      ) as KafkaBusConfig;
      const record = (level: string) => (obj: object, msg: string) =>
        void deps.logs?.push({ level, obj: obj as Record<string, unknown>, msg });
      const created = createTransport(
        { ...config, createTopics: true },
        { onFailure: deps.onFailure, logger: { info: record('info'), warn: record('warn'), error: record('error') } },
      );
      transports.push(created);
      return created;
    }

    const scram = (user: keyof typeof USERS, password: string = USERS[user]) => ({
      KAFKA_BROKERS: broker.saslSslBrokers,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: pki.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: user,
      KAFKA_SASL_PASSWORD: password,
    });

    async function roundTrip(bus: BusTransport, topic: string, values: string[]): Promise<IncomingRecord[]> {
      const seen: IncomingRecord[] = [];
      await bus.subscribe({ topic, group: uniqueName('secure'), handler: async (r) => void seen.push(r) });
      await bus.publish(
        topic,
        values.map((value) => ({ key: 'merchant-1', value })),
      );
      await waitFor(async () => seen.length >= values.length, 30_000, `${values.length} records back from ${topic}`);
      return seen;
    }

    function admin() {
      return new Kafka({
        brokers: [broker.brokers],
        clientId: 'secure-suite-admin',
        logLevel: logLevel.NOTHING,
      }).admin();
    }

    it('publishes and consumes over TLS (a private CA) with SCRAM-SHA-512, under the environment prefix, handlers seeing logical names', async () => {
      const topic = uniqueName('secure.scram');
      const group = uniqueName('ledger');
      const seen: IncomingRecord[] = [];
      const bus = transport({ ...scram('ledger'), KAFKA_TOPIC_PREFIX: 'staging.', HOSTNAME: 'ledger-pod-1' });
      await bus.subscribe({
        topic,
        group,
        handler: async (r) => {
          seen.push(r);
          JSON.parse(r.value); // not JSON: permanent, dead-lettered at once
        },
      });
      await bus.publish(topic, [
        { key: 'merchant-1', value: '{"n":1}' },
        { key: 'merchant-1', value: 'not json' },
      ]);
      await waitFor(async () => seen.length >= 2, 30_000, 'both records handled');
      expect(seen.map((r) => [r.topic, r.value])).toEqual([
        [topic, '{"n":1}'],
        [topic, 'not json'],
      ]);

      // The dead letter went to the prefixed .dlq, naming the logical topic.
      const dlq: IncomingRecord[] = [];
      await bus.subscribe({
        topic: `${topic}.dlq`,
        group: uniqueName('dlq-reader'),
        handler: async (r) => void dlq.push(r),
      });
      await waitFor(async () => dlq.length >= 1, 30_000, 'the dead letter');
      expect(dlq.map((r) => [r.topic, r.value, r.headers[DLQ_HEADERS.originalTopic]])).toEqual([
        [`${topic}.dlq`, 'not json', topic],
      ]);

      const kafka = admin();
      await kafka.connect();
      try {
        const topics = await kafka.listTopics();
        expect(topics.filter((t) => t.includes(topic)).sort()).toEqual([`staging.${topic}`, `staging.${topic}.dlq`]);
        const { groups } = await kafka.listGroups();
        expect(groups.map((g) => g.groupId).filter((g) => g.includes(group))).toEqual([`staging.${group}`]);
        const [described] = (await kafka.describeGroups([`staging.${group}`])).groups;
        expect(described.members.map((m) => m.clientId)).toEqual(['payments-ledger-ledger-pod-1']);
        const [offsets] = await kafka.fetchOffsets({ groupId: `staging.${group}`, topics: [`staging.${topic}`] });
        expect(offsets.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0)).toBe(2); // both committed
      } finally {
        await kafka.disconnect();
      }
    }, 90_000);

    it('mutual TLS: the client certificate is the credential', async () => {
      const bus = transport({
        KAFKA_BROKERS: broker.mtlsBrokers,
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: pki.caFile,
        KAFKA_SSL_CERT_FILE: pki.clientCertFile,
        KAFKA_SSL_KEY_FILE: pki.clientKeyFile,
      });
      const topic = uniqueName('secure.mtls');
      expect((await roundTrip(bus, topic, ['{"m":1}'])).map((r) => r.value)).toEqual(['{"m":1}']);
    }, 60_000);

    it('OAUTHBEARER reads the token file again on every authentication (a rotated token is picked up)', async () => {
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, unsecuredJws('ledger', -60)); // expired
      const bus = transport({
        KAFKA_BROKERS: broker.saslSslBrokers,
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: pki.caFile,
        KAFKA_SASL_MECHANISM: 'oauthbearer',
        KAFKA_OAUTH_TOKEN_FILE: tokenFile,
      });
      const topic = uniqueName('secure.oauth');
      // The broker answers a refused token by closing the connection (kafkajs: "Closed connection").
      await expect(bus.publish(topic, [{ key: 'm', value: '{}' }])).rejects.toThrow();

      writeFileSync(tokenFile, unsecuredJws('ledger', 3600)); // what the platform's rotation writes
      expect((await roundTrip(bus, topic, ['{"o":1}'])).map((r) => r.value)).toEqual(['{"o":1}']);
    }, 60_000);

    it('a wrong password fails a publish', async () => {
      const bus = transport(scram('ledger', 'not-the-password'));
      await expect(bus.publish(uniqueName('secure.wrong'), [{ key: 'm', value: '{}' }])).rejects.toThrow(
        /SASL SCRAM SHA512 authentication failed/,
      );
    }, 60_000);

    it('a password changed on the cluster under a running consumer: the crash is reported by failure() (the service exits)', async () => {
      const failures: Error[] = [];
      const logs: LogLine[] = [];
      const bus = transport(scram('payout'), { onFailure: (e) => failures.push(e), logs });
      const topic = uniqueName('secure.rotated');
      expect((await roundTrip(bus, topic, ['{"r":1}'])).map((r) => r.value)).toEqual(['{"r":1}']);
      expect(bus.failure()).toBeNull();

      await broker.setScramPassword('payout', 'rotated-elsewhere');
      await waitFor(async () => failures.length > 0, 60_000, 'the consumer reported as failed');
      expect(bus.failure()?.message).toMatch(
        /stopped for good: .*SASL SCRAM SHA512 authentication failed: Authentication failed during re-authentication/,
      );
      // kafkajs's own line came through the service logger, with its namespace.
      expect(
        logs.some((l) => l.level === 'error' && typeof l.obj['namespace'] === 'string' && /SASL/.test(l.msg)),
      ).toBe(true);
    }, 120_000);
  },
);
