import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  createPgPool,
  MerchantEventRepository,
  PayinExpiryRepository,
  type PrismaClient,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant, insertSuccessfulPayin, ledgerFor, repoRoot } from '@pay/testing';
import type { Pool } from 'pg';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

// The merchant's own snippet, as the API guide gives it.
const { verifyCallback } = require(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js')) as {
  verifyCallback: (rawBody: string, header: string, secret: string) => boolean;
};

describe('The merchant event log (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let pool: Pool;
  let deliveries: WebhookDeliveryRepository;

  beforeAll(async () => {
    const env = { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'fatal' };
    gateway = await createGatewayApp(loadConfig(gatewayConfigSchema, env));
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    pool = createPgPool(process.env.DATABASE_URL as string, 24);
    deliveries = new WebhookDeliveryRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await gateway.close();
  });

  const callback = (merchantId: number, n: number) => ({
    eventId: `test.event:${randomUUID()}`,
    eventType: 'payin.succeeded',
    merchantId,
    disbursementId: null,
    url: 'http://127.0.0.1:9/callback',
    body: JSON.stringify({ n, status: 'success' }),
  });

  async function sequences(merchantId: number): Promise<number[]> {
    const rows = await pool.query<{ sequence: string }>(
      'SELECT sequence::text FROM merchant_events WHERE merchant_id = $1 ORDER BY merchant_events.sequence',
      [merchantId],
    );
    return rows.rows.map((r) => Number(r.sequence));
  }

  it('numbers concurrent writers 1..N with no gap and no number shared, the body gaining "sequence"', async () => {
    const { merchant } = await createMerchant(prisma);
    const written = await Promise.all(
      Array.from({ length: 40 }, (_, i) => deliveries.create(callback(merchant.id, i), new Date())),
    );
    expect(await sequences(merchant.id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const numbers = written.map((d) => JSON.parse(d.body).sequence as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Only a field is added: the rest of the body is the bytes the producer wrote.
    const first = written.find((d) => JSON.parse(d.body).n === 0);
    expect(first?.body).toBe(`{"n":0,"status":"success","sequence":${JSON.parse(first?.body ?? '{}').sequence}}`);
  });

  it('leaves no gap when a transaction that wrote a callback rolls back, and numbers an event id once', async () => {
    const { merchant } = await createMerchant(prisma);
    await deliveries.create(callback(merchant.id, 1), new Date());
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, url, body, status, next_attempt_at)
         VALUES ($1, $2, 'payin.succeeded', $3, 'http://127.0.0.1:9/', '{"n":2}', 'pending', now())`,
        [randomUUID(), `test.rolled-back:${randomUUID()}`, merchant.id],
      );
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const again = callback(merchant.id, 3);
    const d = await deliveries.create(again, new Date());
    const same = await deliveries.create(again, new Date());
    expect(JSON.parse(d.body).sequence).toBe(2);
    expect(same.body).toBe(d.body);
    // An event with no callback URL is in the log too, numbered the same way.
    const events = new MerchantEventRepository(pool);
    const recorded = await events.record({
      merchantId: merchant.id,
      eventId: `test.no-url:${randomUUID()}`,
      eventType: 'settlement.credited',
      body: '{}',
    });
    expect(recorded).toBe('{"sequence":3}');
    expect(await sequences(merchant.id)).toEqual([1, 2, 3]);
    await expect(pool.query('DELETE FROM merchant_events WHERE merchant_id = $1', [merchant.id])).rejects.toThrow(
      /append-only/,
    );
  });

  it('logs an event that has no callback URL, numbered with the others, and delivers none for it', async () => {
    const { merchant } = await createMerchant(prisma);
    const payin = async (notifyUrl: string | null) => {
      const id = randomUUID();
      await prisma.payin.create({
        data: {
          id,
          merchantId: merchant.id,
          merchantTrxId: `EXP-${id.slice(0, 8)}`,
          platformTrxId: `QR${id.replace(/-/g, '').slice(0, 16).toUpperCase()}`,
          amount: 1000000n,
          fee: 10000n,
          feePctMilli: 0,
          feeFixed: 10000n,
          status: 'pending',
          expiresAt: new Date(Date.now() - 60_000),
          notifyUrl,
        },
      });
      return id;
    };
    const withUrl = await payin('http://127.0.0.1:9/callback');
    const withoutUrl = await payin(null);
    const round = await new PayinExpiryRepository(pool).expireDue(new Date(), 10, [], merchant.id);
    expect(round).toEqual({ expired: 2, callbacks: 1 });
    const logged = await pool.query<{ event_id: string; sequence: string; body: string }>(
      'SELECT event_id, sequence::text, body FROM merchant_events WHERE merchant_id = $1 ORDER BY merchant_events.sequence',
      [merchant.id],
    );
    expect(logged.rows.map((r) => r.sequence)).toEqual(['1', '2']);
    expect(logged.rows.map((r) => r.event_id).sort()).toEqual(
      [`payin.${withUrl}.expired`, `payin.${withoutUrl}.expired`].sort(),
    );
    const delivered = await pool.query<{ payin_id: string }>(
      'SELECT payin_id::text FROM webhook_deliveries WHERE merchant_id = $1',
      [merchant.id],
    );
    expect(delivered.rows).toEqual([{ payin_id: withUrl }]);
    const unsent = logged.rows.find((r) => r.event_id === `payin.${withoutUrl}.expired`);
    expect(JSON.parse(unsent?.body ?? '{}')).toMatchObject({ type: 'payin.expired', data: { status: 'expired' } });
  });

  it('logs settlement.credited when the ledger credits a settlement, with its pay-ins and amounts, and calls the default URL', async () => {
    const { merchant } = await createMerchant(prisma);
    const quiet = await createMerchant(prisma);
    await prisma.merchant.update({
      where: { id: merchant.id },
      data: { payinCallbackUrl: 'http://127.0.0.1:9/settled' },
    });
    const ledger = ledgerFor(prisma);
    const issuedAt = new Date().toISOString();
    const settle = async (merchantId: number) => {
      const payinIds: string[] = [];
      for (const [amount, fee] of [
        [5000000n, 50000n],
        [2000000n, 20000n],
      ]) {
        const payinId = await insertSuccessfulPayin(prisma, merchantId, amount, fee);
        payinIds.push(payinId);
        await ledger.apply({
          type: 'payin.record',
          commandId: `payin:${payinId}`,
          merchantId,
          issuedAt,
          payinId,
          amount: amount.toString(),
          fee: fee.toString(),
        });
      }
      const settlementId = randomUUID();
      await ledger.apply({
        type: 'settlement.credit',
        commandId: `s:${settlementId}`,
        merchantId,
        issuedAt,
        settlementId,
        payinIds,
      });
      return { settlementId, payinIds };
    };
    const { settlementId, payinIds } = await settle(merchant.id);
    await settle(quiet.merchant.id);

    const [event] = (await new MerchantEventRepository(pool).after(merchant.id, 0n, 10)).events;
    expect(event).toMatchObject({
      sequence: 1n,
      eventId: `settlement.${settlementId}.credited`,
      eventType: 'settlement.credited',
    });
    const payins = await prisma.payin.findMany({ where: { id: { in: payinIds } } });
    const body = JSON.parse(event?.body ?? '{}');
    expect(body).toMatchObject({
      id: `settlement.${settlementId}.credited`,
      type: 'settlement.credited',
      sequence: 1,
      data: {
        idMerchant: merchant.id,
        settlementId,
        amount: 69300,
        gross: 70000,
        fees: 700,
        refunds: 0,
        payinCount: 2,
      },
    });
    expect(body.data.payins).toEqual(
      expect.arrayContaining(
        payins.map((p) => ({
          merchantTrxId: p.merchantTrxId,
          platformTrxId: p.platformTrxId,
          amount: Number(p.amount) / 100,
          fee: Number(p.fee) / 100,
          net: Number(p.amount - p.fee) / 100,
        })),
      ),
    );
    const deliveries = await pool.query('SELECT url, body FROM webhook_deliveries WHERE merchant_id = $1', [
      merchant.id,
    ]);
    expect(deliveries.rows).toEqual([{ url: 'http://127.0.0.1:9/settled', body: event?.body }]);
    // Without a default callback URL: in the log, no delivery.
    const theirs = (await new MerchantEventRepository(pool).after(quiet.merchant.id, 0n, 10)).events;
    expect(theirs.map((e) => e.eventType)).toEqual(['settlement.credited']);
    const none = await pool.query('SELECT 1 FROM webhook_deliveries WHERE merchant_id = $1', [quiet.merchant.id]);
    expect(none.rows).toEqual([]);
  });

  it("GET /api/v1/events: in order after N, paged, signed as callbacks, only the merchant's own", async () => {
    const { merchant, token } = await createMerchant(prisma);
    const other = await createMerchant(prisma);
    for (let i = 0; i < 5; i++) await deliveries.create(callback(merchant.id, i), new Date());
    await deliveries.create(callback(other.merchant.id, 99), new Date());
    const { webhookSecret } = await prisma.merchant.findUniqueOrThrow({ where: { id: merchant.id } });

    const first = await request(http).get('/api/v1/events?limit=2').set('token', token).expect(200);
    expect(first.body.data.events.map((e: { sequence: string }) => e.sequence)).toEqual(['1', '2']);
    expect(first.body.data).toMatchObject({ hasMore: true, nextAfter: '2' });
    const rest = await request(http).get('/api/v1/events?after=2&limit=10').set('token', token).expect(200);
    expect(rest.body.data.events.map((e: { sequence: string }) => e.sequence)).toEqual(['3', '4', '5']);
    expect(rest.body.data).toMatchObject({ hasMore: false, nextAfter: '5' });
    const none = await request(http).get('/api/v1/events?after=5').set('token', token).expect(200);
    expect(none.body.data).toEqual({ events: [], hasMore: false, nextAfter: '5' });

    for (const e of [...first.body.data.events, ...rest.body.data.events]) {
      expect(verifyCallback(e.body, e.signature, webhookSecret)).toBe(true);
      expect(verifyCallback(e.body, e.signature, 'not-the-secret')).toBe(false);
      expect(JSON.parse(e.body).sequence).toBe(Number(e.sequence));
      expect(e.eventType).toBe('payin.succeeded');
    }
    // The bodies are the callbacks' own, byte for byte.
    const stored = await pool.query<{ body: string }>(
      'SELECT body FROM webhook_deliveries WHERE merchant_id = $1 ORDER BY created_at, id',
      [merchant.id],
    );
    expect([...first.body.data.events, ...rest.body.data.events].map((e) => e.body).sort()).toEqual(
      stored.rows.map((r) => r.body).sort(),
    );

    const theirs = await request(http).get('/api/v1/events').set('token', other.token).expect(200);
    expect(theirs.body.data.events.map((e: { body: string }) => JSON.parse(e.body).n)).toEqual([99]);
  });

  it('GET /api/v1/webhooks/deliveries?status=failed and the resend: only its own, idempotent', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const other = await createMerchant(prisma);
    const failed = await deliveries.create(callback(merchant.id, 1), new Date());
    const dead = await deliveries.create(callback(merchant.id, 2), new Date());
    const delivered = await deliveries.create(callback(merchant.id, 3), new Date());
    const busy = await deliveries.create(callback(merchant.id, 4), new Date());
    const theirs = await deliveries.create(callback(other.merchant.id, 5), new Date());
    const setStatus = (id: string, status: string) =>
      pool.query('UPDATE webhook_deliveries SET status = $2, last_status_code = 500 WHERE id = $1', [id, status]);
    await setStatus(failed.id, 'failed');
    await setStatus(dead.id, 'dead');
    await setStatus(delivered.id, 'delivered');
    await setStatus(busy.id, 'delivering');
    await setStatus(theirs.id, 'failed');

    const list = await request(http).get('/api/v1/webhooks/deliveries?status=failed').set('token', token).expect(200);
    expect(list.body.data.hasMore).toBe(false);
    expect(list.body.data.deliveries.map((d: { id: string }) => d.id).sort()).toEqual([failed.id, dead.id].sort());
    expect(list.body.data.deliveries.find((d: { id: string }) => d.id === failed.id)).toMatchObject({
      eventId: failed.eventId,
      sequence: '1',
      status: 'failed',
      lastStatusCode: 500,
      resendCount: 0,
    });
    const paged = await request(http).get('/api/v1/webhooks/deliveries?limit=3').set('token', token).expect(200);
    expect(paged.body.data).toMatchObject({ hasMore: true });
    const last = paged.body.data.deliveries[2].id;
    const rest = await request(http)
      .get(`/api/v1/webhooks/deliveries?limit=3&before=${last}`)
      .set('token', token)
      .expect(200);
    expect(
      [...paged.body.data.deliveries, ...rest.body.data.deliveries].map((d: { id: string }) => d.id).sort(),
    ).toEqual([failed.id, dead.id, delivered.id, busy.id].sort());

    const resent = await request(http)
      .post(`/api/v1/webhooks/deliveries/${failed.id}/resend`)
      .set('token', token)
      .expect(200);
    expect(resent.body).toMatchObject({
      message: 'Callback queued for resend',
      data: { id: failed.id, status: 'pending', resendCount: 1 },
    });
    const again = await request(http)
      .post(`/api/v1/webhooks/deliveries/${failed.id}/resend`)
      .set('token', token)
      .expect(200);
    expect(again.body).toMatchObject({
      message: 'Callback already queued',
      data: { status: 'pending', resendCount: 1 },
    });
    const row = await pool.query('SELECT status, resend_count, body FROM webhook_deliveries WHERE id = $1', [
      failed.id,
    ]);
    expect(row.rows[0]).toMatchObject({ status: 'pending', resend_count: 1, body: failed.body });

    const notYours = await request(http)
      .post(`/api/v1/webhooks/deliveries/${theirs.id}/resend`)
      .set('token', token)
      .expect(404);
    expect(notYours.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
    await request(http).post('/api/v1/webhooks/deliveries/not-a-uuid/resend').set('token', token).expect(404);
    const inFlight = await request(http)
      .post(`/api/v1/webhooks/deliveries/${busy.id}/resend`)
      .set('token', token)
      .expect(409);
    expect(inFlight.body).toMatchObject({ status: false, code: 'CONFLICT' });
    const untouched = await pool.query(
      'SELECT status, resend_count FROM webhook_deliveries WHERE id = ANY($1::uuid[])',
      [[theirs.id, busy.id]],
    );
    expect(untouched.rows.map((r) => r.resend_count)).toEqual([0, 0]);
    // The other merchant sees only its own.
    const theirList = await request(http)
      .get('/api/v1/webhooks/deliveries?status=failed')
      .set('token', other.token)
      .expect(200);
    expect(theirList.body.data.deliveries.map((d: { id: string }) => d.id)).toEqual([theirs.id]);
  });

  it.each([
    ['events?after=-1', 'after'],
    ['events?after=abc', 'after'],
    ['events?after=1.5', 'after'],
    ['events?limit=0', 'limit'],
    ['events?limit=501', 'limit'],
    ['events?limit=x', 'limit'],
    ['webhooks/deliveries?status=lost', 'status'],
    ['webhooks/deliveries?before=1', 'before'],
    ['webhooks/deliveries?limit=101', 'limit'],
  ])('GET /api/v1/%s is a 400 naming %s', async (qs, field) => {
    const { token } = await createMerchant(prisma);
    const res = await request(http).get(`/api/v1/${qs}`).set('token', token).expect(400);
    expect(res.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
    expect(res.body.message).toContain(field);
  });
});
