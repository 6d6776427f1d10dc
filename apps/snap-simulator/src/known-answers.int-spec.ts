import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadSimulatorConfig } from './config';
import { buildSimulator, type Simulator } from './server';
import { Store } from './store';

// The Midtrans demo key of the reference's worked examples: published, a test fixture only.
const DEMO_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAlWbtlh3eM+bW3n5AFj42
wddC4L7tQqbLiCFbTv8K67yng9iwK5mEn+UMXiRhvB2JVWFafCPPxFamsiVG3Mjn
eGjC0BYgmpmw4qXnAnyO3nCdCuPtmZ3ljhKvSTPdWZxrcLi1Xa9V/+Pzb8hrjb5i
wMn6SZFNeMmZYgFKiSeueo6TPln2PoTqXCzs1HtsM8eUVe8GAsjJe/3dYl992nyX
OpG21GgNu8o5T3WOptPg6GdDTWkTWUu483yRbVVy04Pz4L8DDZTDv+WcsAViDn1r
A/jB1Auj/UGKx2ovGcBH/a/hor5TbABbODU6cPTHT54K3sSZtvZNV4eFDB1f/4wd
fwIDAQAB
-----END PUBLIC KEY-----`;
const ASPI_TOKEN = 'gp9HjjEj813Y9JGoqwOeOPWbnt4CUpvIJbU1mMU4a11MNDZ7Sg5u9a';

/**
 * The simulator checks the reference's worked examples byte for byte: the requests exactly as
 * the reference prints them (headers, body, signature) are accepted at the reference's moment,
 * and a changed byte is refused.
 */
describe('SNAP simulator: the reference worked examples', () => {
  let sim: Simulator;
  let store: Store;
  let now = new Date('2024-08-01T03:16:00Z');
  const schema = `snap_ka_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-ka-'));
    writeFileSync(join(dir, 'secret'), 'myclientsecret');
    writeFileSync(join(dir, 'client.pem'), DEMO_PUBLIC_KEY);
    writeFileSync(join(dir, 'sim.pem'), 'unused in these tests');
    const config = loadSimulatorConfig({
      SNAP_SIM_DATABASE_URL: process.env.DATABASE_URL,
      SNAP_SIM_SCHEMA: schema,
      SNAP_SIM_PATH_PREFIX: '',
      SNAP_SIM_CLIENT_ID: 'G1234325-SNAP',
      SNAP_SIM_CLIENT_SECRET_FILE: join(dir, 'secret'),
      SNAP_SIM_CLIENT_PUBLIC_KEY_FILE: join(dir, 'client.pem'),
      SNAP_SIM_PRIVATE_KEY_FILE: join(dir, 'sim.pem'),
    });
    store = await Store.open(config.databaseUrl, config.schema, config.source);
    await store.pool.query('INSERT INTO tokens (token, client_id, expires_at) VALUES ($1, $2, $3)', [
      ASPI_TOKEN,
      'G1234325-SNAP',
      new Date('2024-08-01T04:00:00Z'),
    ]);
    sim = await buildSimulator(config, store, pino({ level: 'silent' }), () => now);
  });

  afterAll(async () => {
    await sim.app.close();
    await store.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await store.close();
  });

  it('worked example 1: the token request is accepted', async () => {
    now = new Date('2024-08-01T03:15:30Z');
    const headers = {
      'content-type': 'application/json',
      'x-timestamp': '2024-08-01T10:15:30+07:00',
      'x-client-key': 'G1234325-SNAP',
      'x-signature':
        'dFhiW8BWjOHI2WcUk5yPUCVR0aqMKf7Q7UKl/Ll95iqB8cnP3nW8ProHArH3wygTe0mYRO/BQ/cmPrv0zEFVSaOC1usQjuMkr2HrJ8WU679sHpm1xf5Lhlyb6/HAINdUqINdw70aOjbYhLnhdjXM4L5vlgVmutjWjc8nmBajg7rjhrAc+XSmrP2F5r6U0dshQd8lDV2shwoEUX2YRNXQgJ7Xga4GrkPMOdbtNxMQBb0sV22zj28wc2YYo+hZUvn4J49WZEzkbWkrYJWRORI1VUjB4DEr84SoxqYt7+Svy7vT0GdhpGmox+o9tTVhmc0b3MUYxTE++53V4d6hKWSv/w==',
    };
    const res = await sim.app.inject({
      method: 'POST',
      url: '/v1.0/access-token/b2b',
      headers,
      payload: '{"grantType":"client_credentials","additionalInfo":{}}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ responseCode: '2007300', tokenType: 'Bearer', expiresIn: '900' });

    const late = await sim.app.inject({
      method: 'POST',
      url: '/v1.0/access-token/b2b',
      headers: { ...headers, 'x-timestamp': '2024-08-01T10:15:31+07:00' },
      payload: '{"grantType":"client_credentials","additionalInfo":{}}',
    });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ responseCode: '4017300' });
  });

  const transferBody =
    '{"partnerReferenceNo":"PO-20240801-000123","amount":{"value":"150000.00","currency":"IDR"},"beneficiaryAccountName":"BUDI SANTOSO","beneficiaryAccountNo":"1234567890","beneficiaryBankCode":"014","sourceAccountNo":"8881234567","transactionDate":"2024-08-01T10:16:00+07:00","additionalInfo":{}}';
  const transferHeaders = {
    'content-type': 'application/json',
    authorization: `Bearer ${ASPI_TOKEN}`,
    'x-timestamp': '2024-08-01T10:16:00+07:00',
    'x-partner-id': 'G1234325-SNAP',
    'channel-id': '95221',
    'x-external-id': '20240801101600000000000000000123',
    'x-signature': 'r0ffjD4Jv+BbrXwxhJ+BE9QZ6IEA244KUY3B8Cu/lEAqIeFwDgg1fYghWiiDNjvljq1xkiX+XWxayMc1r/TAEQ==',
  };

  it('worked example 2: the interbank transfer is executed; the body with its inner space stripped is refused', async () => {
    now = new Date('2024-08-01T03:16:00Z');
    const stripped = await sim.app.inject({
      method: 'POST',
      url: '/v1.0/transfer-interbank',
      headers: { ...transferHeaders, 'x-external-id': '20240801101600000000000000000999' },
      payload: transferBody.replace('BUDI SANTOSO', 'BUDISANTOSO'),
    });
    expect(stripped.statusCode).toBe(401);
    expect(stripped.json()).toMatchObject({ responseCode: '4011800' });

    const res = await sim.app.inject({
      method: 'POST',
      url: '/v1.0/transfer-interbank',
      headers: transferHeaders,
      payload: transferBody,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ responseCode: '2001800', partnerReferenceNo: 'PO-20240801-000123' });
    expect(res.headers['x-timestamp']).toMatch(/\+07:00$/);

    const again = await sim.app.inject({
      method: 'POST',
      url: '/v1.0/transfer-interbank',
      headers: transferHeaders,
      payload: transferBody,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ responseCode: '4091800' });
    expect(await sim.bank.executions(now)).toEqual([
      expect.objectContaining({ partnerReferenceNo: 'PO-20240801-000123', executions: 1, state: 'success' }),
    ]);
  });

  it('worked example 4: the status inquiry finds it succeeded', async () => {
    now = new Date('2024-08-01T03:17:00Z');
    const res = await sim.app.inject({
      method: 'POST',
      url: '/v1.0/transfer/status',
      headers: {
        ...transferHeaders,
        'x-timestamp': '2024-08-01T10:17:00+07:00',
        'x-external-id': '20240801101700000000000000000124',
        'x-signature': 'BhGJsE0Y+UGp50FhtDXZCsPDPFIuTjed6xWmH7wAogwYCmGCMvHpsENn9kdG+byxxjGlrNQC7JZITvG1kFt+mg==',
      },
      payload:
        '{"originalPartnerReferenceNo":"PO-20240801-000123","originalExternalId":"20240801101600000000000000000123","serviceCode":"18","transactionDate":"2024-08-01T10:16:00+07:00","additionalInfo":{}}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      responseCode: '2003600',
      latestTransactionStatus: '00',
      previousResponseCode: '2001800',
      amount: { value: '150000.00', currency: 'IDR' },
    });
  });
});
