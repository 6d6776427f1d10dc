import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DisbursementCallbackFacts,
  disbursementCallbackBody,
  disbursementCallbackEventId,
  disbursementCallbackType,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
} from '@pay/domain';
import { createPgPool, createPrismaClient, type PrismaClient, WebhookDeliveryRepository } from '@pay/persistence';
import { MerchantAdmin } from '@pay/backoffice';
import type { Pool } from 'pg';
import { createLogger } from '@pay/platform';
import { createMerchant, repoRoot, WebhookReceiver } from '@pay/testing';
import { WebhookDeliveryService } from './webhook-delivery.service';

// The merchant API guide's verification snippet, exactly as published.
const { verifyCallback } = require(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js')) as {
  verifyCallback: (rawBody: string, header: string, secret: string, toleranceSec?: number) => boolean;
};

describe('webhook delivery (real Postgres, real HTTP receiver, injected time)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let repo: WebhookDeliveryRepository;
  let now: Date;
  let receiver: WebhookReceiver | undefined;
  const clock = () => now;
  const service = (over: Partial<{ timeoutMs: number; allowLoopback: boolean }> = {}) =>
    new WebhookDeliveryService(
      repo,
      createLogger('test', 'fatal'),
      {
        timeoutMs: over.timeoutMs ?? 2000,
        connectTimeoutMs: over.timeoutMs ?? 2000,
        firstByteTimeoutMs: over.timeoutMs ?? 2000,
        maxResponseBytes: 4096,
        allowLoopback: over.allowLoopback ?? true,
        allowPrivateHosts: [],
        leaseGraceMs: 1000,
      },
      clock,
      () => 0.5,
    );

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    repo = new WebhookDeliveryRepository(pool);
  });
  beforeEach(() => {
    now = new Date();
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  /** A final disbursement status as the payout service writes its callback (the delivery row, due now). */
  async function event(
    url: string,
    over: Partial<DisbursementCallbackFacts> = {},
  ): Promise<{
    event: DisbursementCallbackFacts & { eventId: string; url: string };
    merchantId: number;
    secret: string;
  }> {
    const { merchant } = await createMerchant(prisma, { name: 'Toko "Kopi", Jaya' });
    const facts: DisbursementCallbackFacts = {
      disbursementId: randomUUID(),
      merchantId: merchant.id,
      merchantName: merchant.name,
      merchantTrxId: 'INV-77',
      platformTrxId: 'DSB20261122AAAABBBBCCCC',
      bankCode: 'BCA',
      accountNo: '1234567890',
      accountName: 'BUDI SANTOSO',
      amount: 10_000_000n,
      feeFixed: 250_000n,
      status: 'success',
      successAt: new Date('2026-11-22T12:31:05.000Z'),
      failureReason: null,
      occurredAt: new Date('2026-11-22T12:31:05.100Z'),
      ...over,
    };
    const { secret } = await new MerchantAdmin(prisma).webhookSecret(merchant.id);
    return {
      event: { ...facts, eventId: disbursementCallbackEventId(facts.disbursementId, facts.status), url },
      merchantId: merchant.id,
      secret,
    };
  }

  /** The delivery row, as the payout service writes it in the transaction of the final status (one per event id). */
  const intake = (e: DisbursementCallbackFacts & { eventId: string; url: string }) =>
    repo.create(
      {
        eventId: e.eventId,
        eventType: disbursementCallbackType(e.status),
        merchantId: e.merchantId,
        disbursementId: e.disbursementId,
        url: e.url,
        body: disbursementCallbackBody(e),
      },
      now,
    );

  const advanceTo = (at: Date | null) => {
    if (!at) throw new Error('no next attempt');
    now = at;
  };

  it('delivers one signed POST per final status; the published snippet verifies the raw body; the same event twice is one delivery, sent once', async () => {
    receiver = await WebhookReceiver.start();
    const { event: e, merchantId, secret } = await event(receiver.url);
    const s = service();
    const d = await intake(e);
    expect(await intake(e)).toMatchObject({ id: d.id }); // the same event again: same delivery
    expect(await s.attempt(d.id)).toBe('delivered');
    expect(await s.attempt(d.id)).toBeNull();

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-callback-event-id']).toBe(e.eventId);
    expect(req.headers['x-callback-event-type']).toBe('disbursement.succeeded');
    expect(verifyCallback(req.rawBody, req.headers['x-callback-signature'] as string, secret)).toBe(true);
    expect(verifyCallback(req.rawBody + ' ', req.headers['x-callback-signature'] as string, secret)).toBe(false);
    expect(JSON.parse(req.rawBody)).toEqual({
      id: e.eventId,
      type: 'disbursement.succeeded',
      createdAt: '2026-11-22T12:31:05.100Z',
      // Its number in the merchant's event log (GET /api/v1/events)
      sequence: expect.any(Number),
      data: {
        idMerchant: merchantId,
        merchantName: 'Toko "Kopi", Jaya',
        merchantTrxId: 'INV-77',
        platformTrxId: 'DSB20261122AAAABBBBCCCC',
        accountNo: '1234567890',
        accountName: 'BUDI SANTOSO',
        bankCode: 'BCA',
        amount: 100000,
        fee: { amount: 2500, percentage: 0, fixed: 2500 },
        totalAmount: 102500,
        status: 'success',
        success_at: '2026-11-22 19:31:05',
      },
    });
    const stored = await repo.findWithAttempts(d.id);
    expect(stored).toMatchObject({
      status: 'delivered',
      attemptCount: 1,
      attempts: [{ attemptNo: 1, statusCode: 200, outcome: 'delivered', responseBody: 'ok' }],
    });
  });

  it('concurrent attempts are recorded together, each once, with its own outcome; an attempt that cannot be recorded fails alone', async () => {
    const target = await WebhookReceiver.start((_n, req) => ({
      status: JSON.parse(req.rawBody).data.merchantTrxId === 'INV-RETRY' ? 500 : 200,
    }));
    receiver = target;
    const s = service();
    const events = [];
    for (let i = 0; i < 12; i++)
      events.push(await event(target.url, { merchantTrxId: i % 3 === 0 ? 'INV-RETRY' : 'INV-OK' }));
    const deliveries = [];
    for (const { event: e } of events) deliveries.push(await intake(e));
    // Attempted at the same moment: their attempts are recorded in groups.
    const outcomes = await Promise.all(deliveries.map((d) => s.attempt(d.id)));
    expect(outcomes).toEqual(events.map((_, i) => (i % 3 === 0 ? 'retry' : 'delivered')));
    for (const [i, d] of deliveries.entries()) {
      const stored = await repo.findWithAttempts(d.id);
      expect(stored).toMatchObject({
        status: i % 3 === 0 ? 'pending' : 'delivered',
        attemptCount: 1,
        lastStatusCode: i % 3 === 0 ? 500 : 200,
      });
      expect(stored?.attempts.map((a) => [a.attemptNo, a.outcome])).toEqual([[1, i % 3 === 0 ? 'retry' : 'delivered']]);
    }

    // Recorded at the same moment: one attempt already recorded (its key is taken) and two new ones.
    const [taken, ...fresh] = await Promise.all(
      [deliveries[1], deliveries[2], deliveries[4]].map(
        async (d) =>
          (await repo.findWithAttempts(d.id)) as NonNullable<Awaited<ReturnType<typeof repo.findWithAttempts>>>,
      ),
    );
    const record = (d: typeof taken, attemptCount: number) =>
      repo.recordAttempt(
        { ...d, attemptCount },
        {
          startedAt: now,
          latencyMs: 5,
          statusCode: 200,
          error: null,
          responseBody: 'again',
          outcome: 'delivered',
          nextAttemptAt: null,
        },
      );
    const results = await Promise.allSettled([record(taken, 1), ...fresh.map((d) => record(d, 2))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect((await repo.findWithAttempts(taken.id))?.attempts.map((a) => a.responseBody)).toEqual(['ok']);
    for (const d of fresh)
      expect((await repo.findWithAttempts(d.id))?.attempts.map((a) => [a.attemptNo, a.responseBody])).toEqual([
        [1, 'ok'],
        [2, 'again'],
      ]);
  });

  it('a failed disbursement carries fee 0, totalAmount = amount and the failure reason', async () => {
    receiver = await WebhookReceiver.start();
    const { event: e } = await event(receiver.url, {
      status: 'failed',
      successAt: null,
      failureReason: 'Rejected by the beneficiary bank',
    });
    const s = service();
    await s.attempt((await intake(e)).id);
    expect(JSON.parse(receiver.requests[0].rawBody).data).toMatchObject({
      status: 'failed',
      fee: { amount: 0, percentage: 0, fixed: 2500 },
      totalAmount: 100000,
      success_at: null,
      failureReason: 'Rejected by the beneficiary bank',
    });
  });

  it('500, 500, then 200: three attempts on the schedule, delivered, the same event id each time', async () => {
    receiver = await WebhookReceiver.start((n) => ({ status: n < 2 ? 500 : 200, body: n < 2 ? 'boom' : 'ok' }));
    const { event: e } = await event(receiver.url);
    const s = service();
    const d = await intake(e);
    expect(await s.attempt(d.id)).toBe('retry');
    expect(await s.attempt(d.id)).toBeNull(); // not due yet
    let row = await repo.findWithAttempts(d.id);
    expect(row?.nextAttemptAt?.getTime()).toBe(now.getTime() + WEBHOOK_RETRY_DELAYS_MS[0]);
    advanceTo(row?.nextAttemptAt ?? null);
    expect(await s.attempt(d.id)).toBe('retry');
    row = await repo.findWithAttempts(d.id);
    expect(row?.nextAttemptAt?.getTime()).toBe(now.getTime() + WEBHOOK_RETRY_DELAYS_MS[1]);
    advanceTo(row?.nextAttemptAt ?? null);
    expect(await s.attempt(d.id)).toBe('delivered');

    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((r) => r.headers['x-callback-event-id']))).toEqual(new Set([e.eventId]));
    expect(receiver.requests.map((r) => r.headers['x-callback-attempt'])).toEqual(['1', '2', '3']);
    const final = await repo.findWithAttempts(d.id);
    expect(final?.status).toBe('delivered');
    expect(final?.attempts.map((a) => [a.statusCode, a.outcome, a.responseBody])).toEqual([
      [500, 'retry', 'boom'],
      [500, 'retry', 'boom'],
      [200, 'delivered', 'ok'],
    ]);
  });

  it('400: one attempt, the delivery ends failed; a resend keeps the event id and starts the schedule again', async () => {
    receiver = await WebhookReceiver.start((n) => ({ status: n === 0 ? 400 : 200 }));
    const { event: e } = await event(receiver.url);
    const s = service();
    const d = await intake(e);
    expect(await s.attempt(d.id)).toBe('failed');
    expect(await s.attempt(d.id)).toBeNull();
    expect(receiver.requests).toHaveLength(1);
    expect(await repo.findWithAttempts(d.id)).toMatchObject({ status: 'failed', nextAttemptAt: null });

    await repo.resend(d.id, now);
    expect(await s.attempt(d.id)).toBe('delivered');
    expect(receiver.requests.map((r) => r.headers['x-callback-event-id'])).toEqual([e.eventId, e.eventId]);
    expect(await repo.findWithAttempts(d.id)).toMatchObject({ status: 'delivered', attemptCount: 2, resendCount: 1 });
  });

  it('a receiver that never answers: attempts follow the schedule (injected time) and the delivery is dead-lettered', async () => {
    receiver = await WebhookReceiver.start(() => 'hang');
    const { event: e } = await event(receiver.url);
    const s = service({ timeoutMs: 150 });
    const d = await intake(e);
    const start = now.getTime();
    const attemptTimes: number[] = [];
    for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
      attemptTimes.push(now.getTime() - start);
      const outcome = await s.attempt(d.id);
      expect(outcome).toBe(i < WEBHOOK_MAX_ATTEMPTS - 1 ? 'retry' : 'dead');
      if (outcome === 'retry') advanceTo((await repo.findWithAttempts(d.id))?.nextAttemptAt ?? null);
    }
    const expected = WEBHOOK_RETRY_DELAYS_MS.reduce<number[]>(
      (acc, delay) => [...acc, acc[acc.length - 1] + delay],
      [0],
    );
    expect(attemptTimes).toEqual(expected);
    expect(attemptTimes[attemptTimes.length - 1] / 3_600_000).toBeCloseTo(23.7, 1);
    const final = await repo.findWithAttempts(d.id);
    expect(final).toMatchObject({ status: 'dead', attemptCount: 10, nextAttemptAt: null });
    expect(final?.attempts.every((a) => a.statusCode === null && /timed out/.test(a.error ?? ''))).toBe(true);
    expect(receiver.requests).toHaveLength(10);
  });

  it('an answer with a NUL byte, or with bytes that are not UTF-8: every attempt is recorded with a storable excerpt, retried on the schedule, and the delivery reaches its limit', async () => {
    const answers = [
      Buffer.from('{"error":"busy\u0000\u0000 try later"}'),
      Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x20, 0xc3, 0x28, 0x20, 0x00, 0x6f, 0x6b]),
    ];
    for (const answer of answers) {
      receiver = await WebhookReceiver.start(() => ({ status: 500, body: answer }));
      const { event: e } = await event(receiver.url);
      const s = service();
      const d = await intake(e);
      const start = now.getTime();
      for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
        expect(await s.attempt(d.id)).toBe(i < WEBHOOK_MAX_ATTEMPTS - 1 ? 'retry' : 'dead');
        if (i < WEBHOOK_MAX_ATTEMPTS - 1) advanceTo((await repo.findWithAttempts(d.id))?.nextAttemptAt ?? null);
      }
      expect(now.getTime() - start).toBe(WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
      const final = await repo.findWithAttempts(d.id);
      expect(final).toMatchObject({ status: 'dead', attemptCount: WEBHOOK_MAX_ATTEMPTS, nextAttemptAt: null });
      expect(final?.attempts.map((a) => a.attemptNo)).toEqual(
        Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, (_, i) => i + 1),
      );
      expect(new Set(final?.attempts.map((a) => a.responseBody))).toEqual(
        new Set([answer === answers[0] ? '{"error":"busy try later"}' : 'bad\uFFFD\uFFFD \uFFFD( ok']),
      );
      expect(receiver.requests).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
      await receiver.close();
      receiver = undefined;
    }
  });

  it('claims whose outcome was never recorded are bounded: after 3 in a row the next claim records a failed attempt instead of sending, and the delivery goes on to its limit on the schedule', async () => {
    receiver = await WebhookReceiver.start(() => ({ status: 503 }));
    const { event: e } = await event(receiver.url);
    const s = service();
    const d = await intake(e);
    // Three attempts claimed and never recorded (sent, then the worker died or the record failed): each lease lapses.
    for (let i = 0; i < 3; i++) {
      expect(await repo.claim(d.id, now, 1000)).not.toBeNull();
      now = new Date(now.getTime() + 1001);
    }
    expect(await s.attempt(d.id)).toBe('retry');
    expect(receiver.requests).toHaveLength(0); // not sent again
    let row = await repo.findWithAttempts(d.id);
    expect(row).toMatchObject({
      status: 'pending',
      attemptCount: 4,
      attempts: [
        { attemptNo: 4, statusCode: null, outcome: 'retry', error: expect.stringMatching(/could not be recorded/) },
      ],
    });
    // The schedule goes on from the fourth attempt (30 min), as after any failed one.
    expect(row?.nextAttemptAt?.getTime()).toBe(now.getTime() + WEBHOOK_RETRY_DELAYS_MS[3]);
    for (let attempt = 5; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
      advanceTo(row?.nextAttemptAt ?? null);
      expect(await s.attempt(d.id)).toBe(attempt < WEBHOOK_MAX_ATTEMPTS ? 'retry' : 'dead');
      row = await repo.findWithAttempts(d.id);
    }
    expect(row).toMatchObject({ status: 'dead', attemptCount: WEBHOOK_MAX_ATTEMPTS });
    expect(receiver.requests).toHaveLength(WEBHOOK_MAX_ATTEMPTS - 4);
  });

  it('honours Retry-After on a 429', async () => {
    receiver = await WebhookReceiver.start((n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '3600' } } : { status: 200 },
    );
    const { event: e } = await event(receiver.url);
    const s = service();
    const d = await intake(e);
    expect(await s.attempt(d.id)).toBe('retry');
    expect((await repo.findWithAttempts(d.id))?.nextAttemptAt?.getTime()).toBe(now.getTime() + 3_600_000);
  });

  it('does not follow redirects (a 302 is a final failure) and stores at most 1 KiB of a response', async () => {
    receiver = await WebhookReceiver.start(() => ({
      status: 302,
      headers: { location: 'http://169.254.169.254/latest/meta-data' },
      body: 'x'.repeat(5000),
    }));
    const { event: e } = await event(receiver.url);
    const s = service();
    const d = await intake(e);
    expect(await s.attempt(d.id)).toBe('failed');
    const row = await repo.findWithAttempts(d.id);
    expect(row?.attempts[0]).toMatchObject({ statusCode: 302, outcome: 'failed' });
    expect(row?.attempts[0].responseBody).toHaveLength(1024);
  });

  it('refuses private, link-local and (unless allowed) loopback targets at delivery time, DNS names included', async () => {
    receiver = await WebhookReceiver.start();
    const strict = service({ allowLoopback: false });
    const port = new URL(receiver.url).port;
    const embedding = [
      `http://[::127.0.0.1]:${port}/cb`,
      `http://[::ffff:127.0.0.1]:${port}/cb`,
      'http://[::a9fe:a9fe]/latest/meta-data',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a9fe:a9fe::1]/',
    ];
    for (const url of [
      'http://10.0.0.1/cb',
      'http://169.254.169.254/latest/meta-data',
      `http://localhost:${port}/cb`,
      receiver.url,
      ...embedding,
    ]) {
      const d = await intake((await event(url)).event);
      expect(await strict.attempt(d.id)).toBe('failed');
      expect((await repo.findWithAttempts(d.id))?.attempts[0].error).toMatch(/private or reserved address/);
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('during a secret rotation both the new and the old secret verify', async () => {
    receiver = await WebhookReceiver.start();
    const { event: e, merchantId, secret: old } = await event(receiver.url);
    const { secret: fresh } = await new MerchantAdmin(prisma).rotateWebhookSecret(merchantId, 24);
    const s = service();
    await s.attempt((await intake(e)).id);
    const [req] = receiver.requests;
    const header = req.headers['x-callback-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifyCallback(req.rawBody, header, fresh)).toBe(true);
    expect(verifyCallback(req.rawBody, header, old)).toBe(true);
  });

  it('the merchant API guide publishes the tested snippet verbatim', () => {
    const snippet = readFileSync(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js'), 'utf8').replace(
      /\n\nmodule\.exports[^\n]*\n$/,
      '',
    );
    expect(readFileSync(join(repoRoot(), 'docs', 'merchant-api.md'), 'utf8')).toContain(snippet);
  });
});
