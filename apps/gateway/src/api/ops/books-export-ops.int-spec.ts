import { randomUUID } from 'node:crypto';
import { createMerchant, finishBooksExportByHand, signedInMerchantUser, signedInOperator } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_books_0123456789abcdef0123456789abcdef';

/**
 * The finance exports' routes (docs/books.md) on the ops API and the console: operators only, bad
 * input a 400 envelope, the same export for the same day and kind. The workers that build the
 * files are apps/workers' (books-files.int-spec.ts); here nothing builds them, on a queue prefix
 * of this spec's own.
 */
describe('finance exports on /ops/books/exports and /console/api/books/exports (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let internal: App;
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const past = (days: number) => new Date(Date.now() + 7 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    gateway = await startTestGateway({
      ADMIN_TOKEN,
      QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}books-ops-${randomUUID().slice(0, 8)}`,
    });
    internal = gateway.internalServer;
  });
  afterAll(() => gateway.close());

  it('queues a day once: the same request answers the same export, which GET shows; a kind of its own is another', async () => {
    const date = past(400);
    const first = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'journal' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: true,
      message: 'Export queued',
      data: { date, kind: 'journal', status: 'queued', url: null, rows: null, balanced: null },
    });
    const again = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'journal' });
    expect(again.body.data.id).toBe(first.body.data.id);
    const shown = await request(internal).get(`/ops/books/exports/${first.body.data.id}`).set(auth);
    expect(shown.body).toMatchObject({ message: 'Export queued', data: { id: first.body.data.id, status: 'queued' } });
    const tb = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'trial-balance' });
    expect(tb.body.data.id).not.toBe(first.body.data.id);
  });

  it('a built file: ready with its totals and a presigned URL under the platform prefix', async () => {
    const date = past(401);
    const { body } = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'journal' });
    const id = body.data.id as string;
    await finishBooksExportByHand(gateway.prisma, id);
    const ready = await request(internal).get(`/ops/books/exports/${id}`).set(auth);
    expect(ready.body).toMatchObject({
      message: 'Export ready',
      data: { id, status: 'ready', rows: 0, entries: 0, totalDebit: 0, totalCredit: 0, balanced: true },
    });
    expect(ready.body.data.url).toContain(`books/${date}/journal-${id}.csv`);
    expect(ready.body.data.url).toContain('X-Amz-Signature=');
    const again = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'journal' });
    expect(again.body.data).toMatchObject({ id, status: 'ready' });
  });

  it("the reconciliation kind: the day's report of every run, queued; once built, its runs and open breaks, no debit or credit", async () => {
    const date = past(403);
    const first = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'reconciliation' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      message: 'Export queued',
      data: { date, kind: 'reconciliation', status: 'queued', rows: null, entries: null, openBreaks: null, url: null },
    });
    const id = first.body.data.id as string;
    const journal = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'journal' });
    expect(journal.body.data.id).not.toBe(id);

    await finishBooksExportByHand(gateway.prisma, id); // a day with no run
    const ready = await request(internal).post('/ops/books/exports').set(auth).send({ date, kind: 'reconciliation' });
    expect(ready.body).toMatchObject({
      message: 'Export ready',
      data: {
        id,
        kind: 'reconciliation',
        status: 'ready',
        rows: 0,
        entries: 0,
        openBreaks: 0,
        totalDebit: null,
        totalCredit: null,
        balanced: null,
      },
    });
    expect(ready.body.data.url).toContain(`books/${date}/reconciliation-${id}.csv`);
    // A file of another state of the day than now (a run or a break changed since): stale, still served.
    await gateway.prisma.reconExport.update({ where: { id }, data: { dataDigest: 'another day' } });
    const stale = await request(internal).get(`/ops/books/exports/${id}`).set(auth);
    expect(stale.body).toMatchObject({ message: 'Export stale', data: { id, status: 'stale' } });
    expect(stale.body.data.url).toContain('X-Amz-Signature=');
  });

  it('bad input is a 400 envelope: a future or unreal day, another kind, no kind; an unknown export 404', async () => {
    const tomorrow = new Date(Date.now() + 31 * 3_600_000).toISOString().slice(0, 10);
    for (const body of [
      { date: tomorrow, kind: 'journal' },
      { date: '2026-02-30', kind: 'journal' },
      { date: '28-11-2026', kind: 'trial-balance' },
      { date: past(1), kind: 'payins' },
      { date: past(1) },
      { date: 20261128, kind: 'journal' },
    ]) {
      const res = await request(internal).post('/ops/books/exports').set(auth).send(body);
      expect([res.status, res.body]).toEqual([
        400,
        {
          logId: expect.any(String),
          status: false,
          message: expect.any(String),
          code: 'VALIDATION_ERROR',
          errors: expect.any(Array),
        },
      ]);
    }
    const future = await request(internal)
      .post('/ops/books/exports')
      .set(auth)
      .send({ date: tomorrow, kind: 'journal' });
    expect(future.body.message).toContain('is in the future');
    for (const id of [randomUUID(), 'not-an-id']) {
      const res = await request(internal).get(`/ops/books/exports/${id}`).set(auth);
      expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it("operators only: no token, a merchant's token or a merchant's dashboard session is refused; an operator's console session is served", async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    const body = { date: past(402), kind: 'trial-balance' };
    expect((await request(internal).post('/ops/books/exports').send(body)).status).toBe(401);
    expect((await request(internal).post('/ops/books/exports').set('token', token).send(body)).status).toBe(401);
    expect(
      (await request(internal).post('/ops/books/exports').set('authorization', `Bearer ${token}`).send(body)).status,
    ).toBe(401);
    const merchantUser = await signedInMerchantUser(gateway.prisma, gateway.app.getHttpServer(), merchant.id);
    const asMerchant = await request(internal).post('/console/api/books/exports').set(merchantUser.headers).send(body);
    expect([asMerchant.status, asMerchant.body.code]).toEqual([401, 'SESSION_REQUIRED']);
    // The merchant dashboard's API has no such route at all.
    const onDashboard = await request(gateway.app.getHttpServer())
      .post('/dashboard/api/books/exports')
      .set(merchantUser.headers)
      .send(body);
    expect([401, 403, 404]).toContain(onDashboard.status);
    expect(
      await gateway.prisma.reconExport.count({ where: { merchantId: null, date: new Date(`${body.date}T00:00:00Z`) } }),
    ).toBe(0);

    const operator = await signedInOperator(gateway.prisma, gateway.internalServer);
    const served = await request(internal).post('/console/api/books/exports').set(operator.headers).send(body);
    expect(served.body).toMatchObject({ status: true, data: { kind: 'trial-balance', status: 'queued' } });
    const shown = await request(internal)
      .get(`/console/api/books/exports/${served.body.data.id}`)
      .set(operator.headers);
    expect(shown.body.data.id).toBe(served.body.data.id);
    const audit = await gateway.prisma.$queryRaw<{ action: string }[]>`
      SELECT action FROM operator_audit_log WHERE target = ${`books-export:${served.body.data.id}`}`;
    expect(audit).toEqual([{ action: 'books.export' }]);
  });
});
