import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@pay/persistence';
import { createMerchant } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

const DAY_MS = 86_400_000;

/**
 * The sandbox clock's routes (issue 45, part 4), gateway side: absent without SANDBOX_MODE; an
 * advance is recorded for the workers to walk (status advancing), a second one or a reset meanwhile
 * is 409; a clock ahead of real time is what the merchant's new codes expire on, its sandbox
 * payments are paid at and its settle-now settles up to. The walk itself: e2e/sandbox-clock.e2e-spec.ts.
 */
describe('/api/v1/sandbox/clock (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;

  beforeAll(async () => {
    gateway = await startTestGateway({ SANDBOX_MODE: 'true' });
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(() => gateway.close());

  const clockRow = (merchantId: number) =>
    prisma.$queryRaw<{ frozen_at: Date; advancing_to: Date | null }[]>`
      SELECT frozen_at, advancing_to FROM sandbox_clocks WHERE merchant_id = ${merchantId}`;
  /** The clock planted ahead by `ms`, as a finished walk leaves it */
  const aheadBy = (merchantId: number, ms: number) => prisma.$executeRaw`
    INSERT INTO sandbox_clocks (merchant_id, frozen_at) VALUES (${merchantId}, ${new Date(Date.now() + ms)})`;

  it('is on real time until advanced; an advance is recorded for the workers, a second one or a reset meanwhile refused', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const got = await request(http).get('/api/v1/sandbox/clock').set('token', token);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ aheadSeconds: 0, status: 'ready', advancingTo: null });
    expect(Math.abs(Date.parse(got.body.data.now) - Date.now())).toBeLessThan(5_000);

    const advanced = await request(http)
      .post('/api/v1/sandbox/clock/advance')
      .set('token', token)
      .send({ seconds: 2 * 86_400 });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ status: true, message: 'Clock advancing', data: { status: 'advancing' } });
    const [row] = await clockRow(merchant.id);
    expect(row.advancing_to?.getTime()).toBe(row.frozen_at.getTime() + 2 * DAY_MS);
    expect(advanced.body.data.advancingTo).toBe(row.advancing_to?.toISOString());

    const again = await request(http).post('/api/v1/sandbox/clock/advance').set('token', token).send({ seconds: 60 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      status: false,
      code: 'CONFLICT',
      message: expect.stringMatching(/still advancing/),
    });
    expect((await request(http).delete('/api/v1/sandbox/clock').set('token', token)).status).toBe(409);
    expect((await clockRow(merchant.id))[0].advancing_to).toEqual(row.advancing_to);

    // Another merchant's clock is its own.
    const other = await createMerchant(prisma);
    expect((await request(http).get('/api/v1/sandbox/clock').set('token', other.token)).body.data).toMatchObject({
      aheadSeconds: 0,
      status: 'ready',
    });
  });

  it('a clock ahead: the reading, new codes expiring on it, sandbox payments at it, settle-now up to it; reset goes back', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await aheadBy(merchant.id, 3 * DAY_MS);
    const got = (await request(http).get('/api/v1/sandbox/clock').set('token', token)).body.data;
    expect(got.status).toBe('ready');
    expect(got.aheadSeconds).toBeGreaterThan(3 * 86_400 - 10);

    const merchantTrxId = `CLK-${randomUUID().slice(0, 8)}`;
    const generated = await request(http)
      .post('/api/v1/payin/qris/generate')
      .set('token', token)
      .send({ merchantTrxId, amount: 50000, expirySeconds: 600 });
    expect(generated.status).toBe(200);
    const code = await prisma.payin.findUniqueOrThrow({
      where: { merchantId_merchantTrxId: { merchantId: merchant.id, merchantTrxId } },
    });
    expect(code.expiresAt?.getTime()).toBe(Date.parse(got.now) + 600_000);

    const paid = await request(http).post('/api/v1/payin/qris/sandbox/pay').set('token', token).send({ merchantTrxId });
    expect(paid.status).toBe(200);
    const after = await prisma.payin.findUniqueOrThrow({ where: { id: code.id } });
    expect(after.status).toBe('success');
    expect(after.successAt?.getTime()).toBe(Date.parse(got.now));
    // Its callback, if any, is due at the clock's time too (the workers' clock runner attempts it).

    const settled = await request(http).post('/api/v1/payin/qris/sandbox/settle').set('token', token).send({});
    expect(settled.status).toBe(200);
    expect(settled.body.data.cutoffAt).toBe(got.now);

    const reset = await request(http).delete('/api/v1/sandbox/clock').set('token', token);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ message: 'Clock reset', data: { aheadSeconds: 0, status: 'ready' } });
    expect(await clockRow(merchant.id)).toEqual([]);
  });

  it.each([
    [{}, /^seconds: send seconds or to, exactly one$/],
    [{ seconds: 60, to: new Date(Date.now() + 120_000).toISOString() }, /^to: send seconds or to, exactly one$/],
    [{ seconds: 0 }, /^seconds: /],
    [{ seconds: 30 * 86_400 + 1 }, /^seconds: /],
    [{ seconds: 1.5 }, /^seconds: /],
    [{ to: 'tomorrow' }, /^to: /],
    [{ to: new Date(Date.now() - 60_000).toISOString() }, /^to: must be after the clock's time$/],
    [{ to: new Date(Date.now() + 31 * DAY_MS).toISOString() }, /^to: must be at most 30 days after the clock$/],
  ])('refuses the advance %p with a 400 naming the field, recording nothing', async (body, message) => {
    const { merchant, token } = await createMerchant(prisma);
    const res = await request(http).post('/api/v1/sandbox/clock/advance').set('token', token).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
    expect(res.body.message).toMatch(message);
    expect(await clockRow(merchant.id)).toEqual([]);
  });

  it('does not exist without SANDBOX_MODE: every route 404, whatever the clock table holds', async () => {
    const live = await startTestGateway({ SANDBOX_MODE: 'false' });
    try {
      const { merchant, token } = await createMerchant(prisma);
      await aheadBy(merchant.id, DAY_MS);
      const server = live.app.getHttpServer();
      for (const res of [
        await request(server).get('/api/v1/sandbox/clock').set('token', token),
        await request(server).post('/api/v1/sandbox/clock/advance').set('token', token).send({ seconds: 60 }),
        await request(server).delete('/api/v1/sandbox/clock').set('token', token),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
      }
      // And the merchant's codes expire on real time: a clock is never read there.
      const merchantTrxId = `LIVE-${randomUUID().slice(0, 8)}`;
      const before = Date.now();
      expect(
        (
          await request(server)
            .post('/api/v1/payin/qris/generate')
            .set('token', token)
            .send({ merchantTrxId, amount: 50000, expirySeconds: 600 })
        ).status,
      ).toBe(200);
      const code = await prisma.payin.findUniqueOrThrow({
        where: { merchantId_merchantTrxId: { merchantId: merchant.id, merchantTrxId } },
      });
      expect(code.expiresAt?.getTime()).toBeLessThan(before + 600_000 + 5_000);
    } finally {
      await live.close();
    }
  });
});
