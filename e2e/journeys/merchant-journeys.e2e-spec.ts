import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { verifySignatureHeader } from '@pay/domain';
import { WebhookReceiver } from '@pay/testing';
import { resolveTarget, type Target } from './target';

/**
 * The merchant journeys over HTTP only, against the local stack or any deployed base URL
 * (E2E_BASE_URL + E2E_ADMIN_TOKEN): onboarding, balance, QRIS pay-in and sandbox payment,
 * settlement, account inquiry, transfers to success and to failure, disbursement inquiry, the
 * webhook, and the recon export.
 */
// Against a remote stack, the webhook journey needs a receiver the stack can reach (E2E_RECEIVER_HOST).
const webhookJourney = !process.env.E2E_BASE_URL || Boolean(process.env.E2E_RECEIVER_HOST);

describe('merchant journeys over HTTP', () => {
  let target: Target;
  let merchant: { merchantId: number; token: string; webhookSecret: string; nmid: string };
  let receiver: WebhookReceiver | undefined;
  let notifyUrl = 'https://merchant.example/callback';
  const jakartaToday = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  async function call(method: string, path: string, body?: object, headers: Record<string, string> = {}, base = target.baseUrl): Promise<{ status: number; body: any }> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  }
  const api = (path: string, body?: object) => call(body ? 'POST' : 'GET', `/api/v1/${path}`, body, { token: merchant.token });
  const ops = (path: string, body?: object) => call('POST', `/ops/${path}`, body, { authorization: `Bearer ${target.adminToken}` }, target.internalUrl);
  /** The ops API with any method (PUT, GET, DELETE), for the operator journeys. */
  const operator = (method: string, path: string, body?: object) => call(method, `/ops/${path}`, body, { authorization: `Bearer ${target.adminToken}` }, target.internalUrl);
  const balance = async () => (await api('payin/balance')).body.data.balance as { available: number; pending: number };
  async function eventually<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last = await probe();
    while (!ok(last)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 200));
      last = await probe();
    }
    return last;
  }
  async function transfer(accountNo: string, amount: number) {
    const inquiry = await api('disbursement/account-inquiry', { merchantTrxId: `PO-${randomUUID().slice(0, 12)}`, accountNo, bankCode: 'BCA', amount });
    expect(inquiry.status).toBe(200);
    expect(inquiry.body.message).toBe('Inquiry success');
    const { fee: _fee, totalAmount: _total, ...fields } = inquiry.body.data;
    const accepted = await api('disbursement/transfer', { ...fields, notifyUrl });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ message: 'Request diterima, akan segera diproses', data: { status: 'pending' } });
    return fields.merchantTrxId as string;
  }
  const finalStatus = (merchantTrxId: string) =>
    eventually(`${merchantTrxId} final`, () => api('disbursement/inquiry', { merchantTrxId }), (r) => ['success', 'failed'].includes(r.body.data?.status));

  beforeAll(async () => {
    target = await resolveTarget();
    if (target.receiver) {
      receiver = await WebhookReceiver.start(() => ({ status: 200 }), target.receiver.port, '0.0.0.0');
      notifyUrl = `http://${target.receiver.host}:${new URL(receiver.url).port}/callback`;
    }
    const created = await ops('merchants', { name: `E2E Toko ${randomUUID().slice(0, 6)}, "QA"` });
    expect(created.status).toBe(201);
    merchant = created.body.data;
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await target?.stop();
  });

  it('a new merchant sees a zero balance', async () => {
    expect(await api('payin/balance')).toMatchObject({ status: 200, body: { status: true, message: 'Balance inquiry successful', data: { balance: { available: 0, pending: 0 } } } });
  });

  it('QRIS pay-in: generate, sandbox payment, inquiry success with rrn, pending rises by the net', async () => {
    const generated = await api('payin/qris/generate', { merchantTrxId: 'E2E-PAYIN-1', amount: 500000 });
    expect(generated.status).toBe(200);
    expect(generated.body.data).toMatchObject({ amount: 500000, fee: { amount: 3650, percentage: 0.7, fixed: 150 }, netAmount: 496350, status: 'pending' });
    expect(generated.body.data.qrisPayload).toMatch(/^000201010212.*6304[0-9A-F]{4}$/);
    expect((await api('payin/qris/sandbox/pay', { merchantTrxId: 'E2E-PAYIN-1' })).status).toBe(200);
    const inquiry = await api('payin/qris/inquiry', { merchantTrxId: 'E2E-PAYIN-1' });
    expect(inquiry.body).toMatchObject({ message: 'Query success', data: { status: 'success', netAmount: 496350, additionalInfo: { nmid: merchant.nmid, rrn: expect.stringMatching(/^\d{12}$/) } } });
    await eventually('pending', balance, (b) => b.pending === 496350);
  });

  it('settlement moves the net from pending to available', async () => {
    const run = await ops('settlements/run', { merchantId: merchant.merchantId });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ payinCount: 1 });
    expect(await eventually('settlement', balance, (b) => b.available === 496350)).toEqual({ available: 496350, pending: 0 });
  });

  it('a transfer to a valid account ends in success and costs amount + fee', async () => {
    const id = await transfer('1234567890', 100000);
    const done = await finalStatus(id);
    expect(done.body.data).toMatchObject({ status: 'success', amount: 100000, fee: { amount: 2500, percentage: 0 }, totalAmount: 102500, success_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    expect(await balance()).toEqual({ available: 496350 - 102500, pending: 0 });
  });

  it('a transfer the bank rejects ends in failure, fee 0, and is refunded in full', async () => {
    const id = await transfer('0000000422', 50000);
    const done = await finalStatus(id);
    expect(done.body.data).toMatchObject({ status: 'failed', fee: { amount: 0 }, totalAmount: 50000, success_at: null });
    await eventually('refund', balance, (b) => b.available === 496350 - 102500);
  });

  it('the recon export of today contains the pay-in', async () => {
    const ready = await eventually('export ready', () => api('payin/reconFile', { date: jakartaToday }), (r) => r.body.message === 'Export ready');
    const csv = await (await fetch(ready.body.data.download)).text();
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.merchantTrxId === 'E2E-PAYIN-1')).toMatchObject({ status: 'success', amount: '500000', netAmount: '496350' });
  });

  it('an operator changes the payout fee and the account inquiry quotes it', async () => {
    const id = merchant.merchantId;
    expect(await operator('PUT', `merchants/${id}/fees`, { payoutFee: 3000.5 })).toMatchObject({ status: 200, body: { data: { payoutFee: '3000.5' } } });
    const quoted = await api('disbursement/account-inquiry', { merchantTrxId: `PO-${randomUUID().slice(0, 12)}`, accountNo: '1234567890', bankCode: 'BCA', amount: 100000 });
    expect(quoted.body.data).toMatchObject({ fee: { amount: 3000.5, percentage: 0 }, totalAmount: 103000.5 });
    expect((await operator('GET', `merchants/${id}`)).body.data).toMatchObject({ id, active: true, payoutFee: '3000.5' });
    expect((await operator('PUT', `merchants/${id}/fees`, { payoutFee: -1 })).body).toMatchObject({ status: false, code: 'VALIDATION_ERROR', errors: [{ field: 'payoutFee' }] });
    expect((await operator('PUT', `merchants/${id}/fees`, { payoutFee: 2500 })).status).toBe(200);
  });

  it('an operator issues a second token, which works until revoked', async () => {
    const issued = await operator('POST', `merchants/${merchant.merchantId}/tokens`, { label: 'journeys' });
    expect(issued.status).toBe(201);
    const second = { token: issued.body.data.token as string };
    const withSecond = () => call('GET', '/api/v1/payin/balance', undefined, second);
    expect((await withSecond()).status).toBe(200);
    expect((await operator('DELETE', `tokens/${issued.body.data.id}`)).body).toMatchObject({ status: true, data: { id: issued.body.data.id } });
    expect((await withSecond()).body).toMatchObject({ status: false, code: 'TOKEN_NOT_VALID' });
    expect((await api('payin/balance')).status).toBe(200);
  });

  it('a deactivated merchant is refused until an operator activates it again', async () => {
    const id = merchant.merchantId;
    expect((await operator('POST', `merchants/${id}/deactivate`)).body.data.active).toBe(false);
    expect(await api('payin/balance')).toMatchObject({ status: 401, body: { status: false, message: 'Merchant not active', code: 'MERCHANT_NOT_ACTIVE' } });
    expect((await operator('POST', `merchants/${id}/activate`)).body.data.active).toBe(true);
    expect((await api('payin/balance')).status).toBe(200);
  });

  if (webhookJourney) {
    it('each final transfer status reached the webhook receiver, signed', async () => {
      const got = receiver as WebhookReceiver;
      await eventually('two callbacks', async () => got.requests.length, (n) => n >= 2);
      const types = got.requests.map((r) => JSON.parse(r.rawBody).type).sort();
      expect(types).toEqual(['disbursement.failed', 'disbursement.succeeded']);
      for (const r of got.requests) {
        expect(verifySignatureHeader(r.headers['x-callback-signature'] as string, r.rawBody, merchant.webhookSecret, Math.floor(Date.now() / 1000))).toBe(true);
      }
    });
  }
});
