import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { busConfigFromEnv, busEnvShape, refineBusEnv } from './bus-env';

const schema = z.object({ NODE_ENV: z.string().optional(), ...busEnvShape }).superRefine(refineBusEnv);
const kafka = { BUS_TRANSPORT: 'kafka', KAFKA_BROKERS: 'k1:9092,k2:9092' };
/** The settings named by the issues of a refused environment. */
const refused = (env: Record<string, string>): string[] =>
  schema.safeParse(env).error?.issues.map((i) => i.path.join('.')) ?? [];
const problems = (env: Record<string, string>): string[] =>
  schema.safeParse(env).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

const dir = mkdtempSync(join(tmpdir(), 'bus-env-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const PEM = (what: string) => `-----BEGIN ${what}-----\nMIIB\n-----END ${what}-----\n`;

describe('bus settings from the environment', () => {
  it('gives a Kafka transport the session timeout of KAFKA_SESSION_TIMEOUT_MS, 30 s when unset', () => {
    expect(busConfigFromEnv(schema.parse({ ...kafka, KAFKA_SESSION_TIMEOUT_MS: '10000' }), 'ledger')).toMatchObject({
      kind: 'kafka',
      brokers: ['k1:9092', 'k2:9092'],
      sessionTimeoutMs: 10_000,
    });
    expect(busConfigFromEnv(schema.parse(kafka), 'ledger')).toMatchObject({ sessionTimeoutMs: 30_000 });
  });

  it('refuses a session timeout the broker would refuse (below 6 s)', () => {
    expect(refused({ ...kafka, KAFKA_SESSION_TIMEOUT_MS: '2000' })).toEqual(['KAFKA_SESSION_TIMEOUT_MS']);
  });

  it('names the client after the service and the pod (HOSTNAME, else the host name)', () => {
    expect(
      busConfigFromEnv(schema.parse({ ...kafka, KAFKA_CLIENT_ID: 'pay', HOSTNAME: 'ledger-7d9f-x2' }), 'ledger'),
    ).toMatchObject({ clientId: 'pay-ledger-ledger-7d9f-x2' });
    expect(busConfigFromEnv(schema.parse(kafka), 'payout')).toMatchObject({
      clientId: `payments-payout-${hostname()}`,
    });
  });

  it('takes timeouts from settings, with defaults, and refuses them out of bounds', () => {
    expect(busConfigFromEnv(schema.parse(kafka), 'ledger')).toMatchObject({
      connectionTimeoutMs: 5_000,
      authenticationTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
    });
    const set = {
      KAFKA_CONNECTION_TIMEOUT_MS: '2500',
      KAFKA_AUTHENTICATION_TIMEOUT_MS: '20000',
      KAFKA_REQUEST_TIMEOUT_MS: '60000',
    };
    expect(busConfigFromEnv(schema.parse({ ...kafka, ...set }), 'ledger')).toMatchObject({
      connectionTimeoutMs: 2_500,
      authenticationTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
    });
    expect(
      refused({
        ...kafka,
        KAFKA_CONNECTION_TIMEOUT_MS: '100',
        KAFKA_REQUEST_TIMEOUT_MS: '600000',
        KAFKA_AUTHENTICATION_TIMEOUT_MS: 'soon',
      }).sort(),
    ).toEqual(['KAFKA_AUTHENTICATION_TIMEOUT_MS', 'KAFKA_CONNECTION_TIMEOUT_MS', 'KAFKA_REQUEST_TIMEOUT_MS']);
  });

  describe('prefixes', () => {
    it('applies KAFKA_TOPIC_PREFIX to groups as well unless KAFKA_GROUP_PREFIX says otherwise', () => {
      expect(busConfigFromEnv(schema.parse({ ...kafka, KAFKA_TOPIC_PREFIX: 'staging.' }), 'ledger')).toMatchObject({
        topicPrefix: 'staging.',
        groupPrefix: 'staging.',
      });
      expect(
        busConfigFromEnv(
          schema.parse({ ...kafka, KAFKA_TOPIC_PREFIX: 'stg.', KAFKA_GROUP_PREFIX: 'stg-eu.' }),
          'ledger',
        ),
      ).toMatchObject({ topicPrefix: 'stg.', groupPrefix: 'stg-eu.' });
      const none = busConfigFromEnv(schema.parse(kafka), 'ledger');
      expect(none.kind === 'kafka' && [none.topicPrefix, none.groupPrefix]).toEqual([undefined, undefined]);
    });

    it('refuses characters Kafka does not allow in a name', () => {
      expect(refused({ ...kafka, KAFKA_TOPIC_PREFIX: 'staging/', KAFKA_GROUP_PREFIX: 'a b' }).sort()).toEqual([
        'KAFKA_GROUP_PREFIX',
        'KAFKA_TOPIC_PREFIX',
      ]);
    });
  });

  describe('TLS', () => {
    it('trusts the system CAs with KAFKA_SSL=true alone', () => {
      expect(busConfigFromEnv(schema.parse({ ...kafka, KAFKA_SSL: 'true' }), 'ledger')).toMatchObject({ ssl: true });
      expect(busConfigFromEnv(schema.parse(kafka), 'ledger')).toMatchObject({ ssl: false });
    });

    it('reads the CA, certificate and key PEM files at start-up', () => {
      const env = {
        ...kafka,
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: file('ca.pem', PEM('CERTIFICATE')),
        KAFKA_SSL_CERT_FILE: file('client.pem', PEM('CERTIFICATE')),
        KAFKA_SSL_KEY_FILE: file('client.key', PEM('PRIVATE KEY')),
      };
      expect(busConfigFromEnv(schema.parse(env), 'ledger')).toMatchObject({
        ssl: { ca: PEM('CERTIFICATE'), cert: PEM('CERTIFICATE'), key: PEM('PRIVATE KEY'), rejectUnauthorized: true },
      });
    });

    it('stops start-up naming the setting of a missing or non-PEM file', () => {
      const missing = join(dir, 'nope.pem');
      expect(problems({ ...kafka, KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: missing })).toEqual([
        expect.stringMatching(new RegExp(`^KAFKA_SSL_CA_FILE: cannot read ${missing}: ENOENT`)),
      ]);
      expect(problems({ ...kafka, KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: file('ca.der', 'binary') })).toEqual([
        expect.stringMatching(/^KAFKA_SSL_CA_FILE: .*ca\.der is not a PEM file/),
      ]);
    });

    it('wants the client certificate and key together, and TLS files only with KAFKA_SSL=true', () => {
      expect(refused({ ...kafka, KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: file('c.pem', PEM('CERTIFICATE')) })).toEqual([
        'KAFKA_SSL_KEY_FILE',
      ]);
      expect(refused({ ...kafka, KAFKA_SSL_CA_FILE: file('ca2.pem', PEM('CERTIFICATE')) })).toEqual([
        'KAFKA_SSL_CA_FILE',
      ]);
    });

    it('refuses KAFKA_SSL_REJECT_UNAUTHORIZED=false in production only', () => {
      const env = { ...kafka, KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' };
      expect(busConfigFromEnv(schema.parse({ ...env, NODE_ENV: 'development' }), 'ledger')).toMatchObject({
        ssl: { rejectUnauthorized: false },
      });
      expect(refused({ ...env, NODE_ENV: 'production' })).toEqual(['KAFKA_SSL_REJECT_UNAUTHORIZED']);
    });
  });

  describe('SASL', () => {
    const scram = {
      ...kafka,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'ledger',
      KAFKA_SASL_PASSWORD: 's3cret',
    };

    it('passes SCRAM credentials over TLS', () => {
      expect(busConfigFromEnv(schema.parse({ ...scram, KAFKA_SSL: 'true' }), 'ledger')).toMatchObject({
        ssl: true,
        sasl: { mechanism: 'scram-sha-512', username: 'ledger', password: 's3cret' },
      });
    });

    it('refuses SASL without TLS, unless allowed for a local broker outside production', () => {
      expect(problems(scram)).toEqual([
        expect.stringMatching(/^KAFKA_SSL: must be true with KAFKA_SASL_MECHANISM=scram-sha-512 \(SASL without TLS/),
      ]);
      expect(busConfigFromEnv(schema.parse({ ...scram, KAFKA_ALLOW_SASL_PLAINTEXT: 'true' }), 'ledger')).toMatchObject({
        ssl: false,
        sasl: { mechanism: 'scram-sha-512' },
      });
      expect(refused({ ...scram, KAFKA_ALLOW_SASL_PLAINTEXT: 'true', NODE_ENV: 'production' })).toEqual([
        'KAFKA_ALLOW_SASL_PLAINTEXT',
      ]);
    });

    it('wants a username and password with a password mechanism', () => {
      expect(
        refused({ ...kafka, KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'ledger' }),
      ).toEqual(['KAFKA_SASL_USERNAME']);
    });

    it('OAUTHBEARER: wants a readable token file, kept as a path (read again on every authentication)', () => {
      const oauth = { ...kafka, KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'oauthbearer' };
      const token = file('token', 'eyJ.x.y');
      expect(busConfigFromEnv(schema.parse({ ...oauth, KAFKA_OAUTH_TOKEN_FILE: token }), 'ledger')).toMatchObject({
        sasl: { mechanism: 'oauthbearer', tokenFile: token },
      });
      expect(refused(oauth)).toEqual(['KAFKA_OAUTH_TOKEN_FILE']);
      expect(problems({ ...oauth, KAFKA_OAUTH_TOKEN_FILE: join(dir, 'gone') })).toEqual([
        expect.stringMatching(/^KAFKA_OAUTH_TOKEN_FILE: cannot read .*gone: ENOENT/),
      ]);
    });

    it('AWS MSK IAM: wants the region, and TLS like every SASL mechanism', () => {
      const iam = { ...kafka, KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'aws-msk-iam' };
      expect(busConfigFromEnv(schema.parse({ ...iam, KAFKA_AWS_REGION: 'ap-southeast-3' }), 'ledger')).toMatchObject({
        sasl: { mechanism: 'aws-msk-iam', region: 'ap-southeast-3' },
      });
      expect(refused(iam)).toEqual(['KAFKA_AWS_REGION']);
      expect(refused({ ...iam, KAFKA_SSL: 'false', KAFKA_AWS_REGION: 'ap-southeast-3' })).toEqual(['KAFKA_SSL']);
    });
  });

  it('leaves a Redis Streams service alone whatever the Kafka settings', () => {
    expect(refused({ BUS_REDIS_URL: 'redis://r:6379', KAFKA_SASL_MECHANISM: 'plain', NODE_ENV: 'production' })).toEqual(
      [],
    );
  });

  it('Redis Streams: waits for no replica unless BUS_REDIS_WAIT_REPLICAS says, and bounds the wait', () => {
    const config = (env: Record<string, string>) =>
      busConfigFromEnv(schema.parse({ BUS_REDIS_URL: 'redis://r:6379', ...env }), 'ledger');
    expect(config({})).toMatchObject({ kind: 'redis-streams', replicasToAck: 0, replicaAckTimeoutMs: 1000 });
    expect(config({ BUS_REDIS_WAIT_REPLICAS: '1', BUS_REDIS_WAIT_MS: '250' })).toMatchObject({
      replicasToAck: 1,
      replicaAckTimeoutMs: 250,
    });
    expect(refused({ BUS_REDIS_URL: 'redis://r:6379', BUS_REDIS_WAIT_REPLICAS: '-1' })).toEqual([
      'BUS_REDIS_WAIT_REPLICAS',
    ]);
    expect(refused({ BUS_REDIS_URL: 'redis://r:6379', BUS_REDIS_WAIT_MS: '0' })).toEqual(['BUS_REDIS_WAIT_MS']);
    // Past the connection's 15 s socket timeout the wait would cut its own connection.
    expect(refused({ BUS_REDIS_URL: 'redis://r:6379', BUS_REDIS_WAIT_MS: '20000' })).toEqual(['BUS_REDIS_WAIT_MS']);
  });
});
