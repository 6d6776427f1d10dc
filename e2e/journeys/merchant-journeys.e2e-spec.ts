import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import {
  constructCallbackEvent,
  createMerchantClient,
  type DisbursementCallback,
  type MerchantClient,
  type PayinCallback,
  type PayinRefundCallback,
  unwrap,
} from '@pay/merchant-client';
import { signInDashboard, WebhookReceiver } from '@pay/testing';
import { resolveTarget, type Target } from './target';

/**
 * The merchant journeys over HTTP only, against the local stack or any deployed base URL
 * (E2E_BASE_URL + E2E_ADMIN_TOKEN): onboarding, balance, QRIS pay-in and sandbox payment,
 * settlement, account inquiry, transfers to success and to failure, disbursement inquiry, the
 * webhook, and the recon export. The merchant API is called through the typed merchant client
 * (@pay/merchant-client), as a merchant's developer would; callbacks are checked with its verifier.
 */
// Against a remote stack, the webhook journey needs a receiver the stack can reach (E2E_RECEIVER_HOST).
const webhookJourney = !process.env.E2E_BASE_URL || Boolean(process.env.E2E_RECEIVER_HOST);

// Through the container stage's faults (a Postgres restart: the platform answers 503 for a moment)
// a 503 or a refused connection is tried again, as a merchant's client would, for up to
// E2E_RETRY_UNAVAILABLE_MS; unset (every other run), each answer counts as it is.
const retryUnavailableMs = Number(process.env.E2E_RETRY_UNAVAILABLE_MS ?? 0);
async function patientFetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  const deadline = Date.now() + retryUnavailableMs;
  for (;;) {
    try {
      const res = await fetch(input instanceof Request ? input.clone() : input, init);
      if (res.status !== 503 || Date.now() >= deadline) return res;
    } catch (err) {
      // fetch's own failure (no connection) only: a contract violation is never retried.
      if (!(err instanceof TypeError) || Date.now() >= deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The API's Rupiah (a number with at most two decimals) as integer sen, before any arithmetic. */
const sen = (rupiah: number) => Math.round(rupiah * 100);

describe('merchant journeys over HTTP', () => {
  let target: Target;
  let merchant: { merchantId: number; token: string; webhookSecret: string; nmid: string };
  let client: MerchantClient;
  let receiver: WebhookReceiver | undefined;
  let notifyUrl = 'https://merchant.example/callback';
  const jakartaToday = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

  async function call(
    method: string,
    path: string,
    body?: object,
    headers: Record<string, string> = {},
    base = target.baseUrl,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  ): Promise<{ status: number; body: any }> {
    const res = await patientFetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  }
  const ops = (path: string, body?: object) =>
    call('POST', `/ops/${path}`, body, { authorization: `Bearer ${target.adminToken}` }, target.internalUrl);
  /** The ops API with any method (PUT, GET, DELETE), for the operator journeys. */
  const operator = (method: string, path: string, body?: object) =>
    call(method, `/ops/${path}`, body, { authorization: `Bearer ${target.adminToken}` }, target.internalUrl);
  const balance = async () => unwrap(await client.GET('/api/v1/payin/balance')).balance;
  async function eventually<T>(
    what: string,
    probe: () => Promise<T>,
    ok: (v: T) => boolean,
    // Longer where the stack is put through faults meanwhile (tools/containers/compose-test.sh).
    timeoutMs = Number(process.env.E2E_EVENTUALLY_MS ?? 30_000),
  ): Promise<T> {
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
    const inquiry = await client.POST('/api/v1/disbursement/account-inquiry', {
      body: { merchantTrxId: `PO-${randomUUID().slice(0, 12)}`, accountNo, bankCode: 'BCA', amount },
    });
    expect(inquiry.response.status).toBe(200);
    expect(inquiry.data?.message).toBe('Inquiry success');
    const { fee: _fee, totalAmount: _total, ...fields } = unwrap(inquiry);
    const accepted = await client.POST('/api/v1/disbursement/transfer', { body: { ...fields, notifyUrl } });
    expect(accepted.response.status).toBe(200);
    expect(accepted.data).toMatchObject({
      message: 'Request diterima, akan segera diproses',
      data: { status: 'pending' },
    });
    return fields.merchantTrxId;
  }
  const finalStatus = (merchantTrxId: string) =>
    eventually(
      `${merchantTrxId} final`,
      async () => unwrap(await client.POST('/api/v1/disbursement/inquiry', { body: { merchantTrxId } })),
      (d) => ['success', 'failed'].includes(d.status),
    );

  beforeAll(async () => {
    target = await resolveTarget();
    if (target.receiver) {
      receiver = await WebhookReceiver.start(() => ({ status: 200 }), target.receiver.port, '0.0.0.0');
      notifyUrl = `http://${target.receiver.host}:${new URL(receiver.url).port}/callback`;
    }
    const created = await ops('merchants', { name: `E2E Toko ${randomUUID().slice(0, 6)}, "QA"` });
    expect(created.status).toBe(201);
    merchant = created.body.data;
    client = createMerchantClient({ baseUrl: target.baseUrl, token: merchant.token, fetch: patientFetch });
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await target?.stop();
  });

  it('a new merchant sees a zero balance', async () => {
    const res = await client.GET('/api/v1/payin/balance');
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({
      status: true,
      message: 'Balance inquiry successful',
      data: { balance: { available: 0, pending: 0 } },
    });
  });

  it('QRIS pay-in: generate, sandbox payment, inquiry success with rrn, pending rises by the net', async () => {
    const generated = unwrap(
      await client.POST('/api/v1/payin/qris/generate', {
        body: { merchantTrxId: 'E2E-PAYIN-1', amount: 500000, notifyUrl },
      }),
    );
    expect(generated).toMatchObject({
      amount: 500000,
      fee: { amount: 3650, percentage: 0.7, fixed: 150 },
      netAmount: 496350,
      status: 'pending',
    });
    expect(generated.qrisPayload).toMatch(/^000201010212.*6304[0-9A-F]{4}$/);
    expect(
      (await client.POST('/api/v1/payin/qris/sandbox/pay', { body: { merchantTrxId: 'E2E-PAYIN-1' } })).response.status,
    ).toBe(200);
    const inquiry = await client.POST('/api/v1/payin/qris/inquiry', { body: { merchantTrxId: 'E2E-PAYIN-1' } });
    expect(inquiry.data).toMatchObject({
      message: 'Query success',
      data: {
        status: 'success',
        netAmount: 496350,
        additionalInfo: { nmid: merchant.nmid, rrn: expect.stringMatching(/^\d{12}$/) },
      },
    });
    await eventually('pending', balance, (b) => b.pending === 496350);
  });

  it('settlement moves the net from pending to available', async () => {
    const run = await ops('settlements/run', { merchantId: merchant.merchantId });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ payinCount: 1 });
    expect(await eventually('settlement', balance, (b) => b.available === 496350)).toEqual({
      available: 496350,
      pending: 0,
    });
  });

  it('a transfer to a valid account ends in success and costs amount + fee', async () => {
    const id = await transfer('1234567890', 100000);
    const done = await finalStatus(id);
    expect(done).toMatchObject({
      status: 'success',
      amount: 100000,
      fee: { amount: 2500, percentage: 0 },
      totalAmount: 102500,
      success_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(await balance()).toEqual({ available: 496350 - 102500, pending: 0 });
  });

  it('a transfer the bank rejects ends in failure, fee 0, and is refunded in full', async () => {
    const id = await transfer('0000000422', 50000);
    const done = await finalStatus(id);
    expect(done).toMatchObject({ status: 'failed', fee: { amount: 0 }, totalAmount: 50000, success_at: null });
    await eventually('refund', balance, (b) => b.available === 496350 - 102500);
  });

  it('the recon export of today contains the pay-in', async () => {
    const ready = await eventually(
      'export ready',
      () => client.POST('/api/v1/payin/reconFile', { body: { date: jakartaToday } }),
      (r) => r.data?.message === 'Export ready',
    );
    const csv = await (await patientFetch(unwrap(ready).download as string)).text();
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.merchantTrxId === 'E2E-PAYIN-1')).toMatchObject({
      status: 'success',
      amount: '500000',
      netAmount: '496350',
    });
  });

  it('the history lists show the pay-in, both transfers and every balance movement, newest first', async () => {
    const payins = unwrap(await client.GET('/api/v1/payin/list', { params: { query: { status: 'success' } } }));
    expect(payins.items.map((p) => p.merchantTrxId)).toEqual(['E2E-PAYIN-1']);
    const first = unwrap(await client.GET('/api/v1/disbursement/list', { params: { query: { limit: 1 } } }));
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = unwrap(
      await client.GET('/api/v1/disbursement/list', {
        params: { query: { limit: 1, cursor: first.nextCursor as string } },
      }),
    );
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.items, ...second.items].map((d) => d.status)).toEqual(['failed', 'success']);
    const movements = unwrap(await client.GET('/api/v1/balance/movements'));
    expect(movements.items[0]).toMatchObject({
      type: 'payout.refunded',
      availableAfter: (await balance()).available,
      pendingAfter: 0,
    });
    expect(movements.items.map((m) => m.type).sort()).toEqual([
      'payin.recorded',
      'payout.debited',
      'payout.debited',
      'payout.refunded',
      'settlement.credited',
    ]);
    const refused = await client.GET('/api/v1/balance/movements', { params: { query: { limit: 101 } } });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'limit' }] });
  });

  it('an operator changes the payout fee and the account inquiry quotes it', async () => {
    const id = merchant.merchantId;
    expect(await operator('PUT', `merchants/${id}/fees`, { payoutFee: 3000.5 })).toMatchObject({
      status: 200,
      body: { data: { payoutFee: '3000.5' } },
    });
    const quoted = unwrap(
      await client.POST('/api/v1/disbursement/account-inquiry', {
        body: {
          merchantTrxId: `PO-${randomUUID().slice(0, 12)}`,
          accountNo: '1234567890',
          bankCode: 'BCA',
          amount: 100000,
        },
      }),
    );
    expect(quoted).toMatchObject({ fee: { amount: 3000.5, percentage: 0 }, totalAmount: 103000.5 });
    expect((await operator('GET', `merchants/${id}`)).body.data).toMatchObject({
      id,
      active: true,
      payoutFee: '3000.5',
    });
    expect((await operator('PUT', `merchants/${id}/fees`, { payoutFee: -1 })).body).toMatchObject({
      status: false,
      code: 'VALIDATION_ERROR',
      errors: [{ field: 'payoutFee' }],
    });
    expect((await operator('PUT', `merchants/${id}/fees`, { payoutFee: 2500 })).status).toBe(200);
  });

  it('an operator issues a second token, which works until revoked', async () => {
    const issued = await operator('POST', `merchants/${merchant.merchantId}/tokens`, { label: 'journeys' });
    expect(issued.status).toBe(201);
    const second = createMerchantClient({
      baseUrl: target.baseUrl,
      token: issued.body.data.token as string,
      fetch: patientFetch,
    });
    expect((await second.GET('/api/v1/payin/balance')).response.status).toBe(200);
    expect((await operator('DELETE', `tokens/${issued.body.data.id}`)).body).toMatchObject({
      status: true,
      data: { id: issued.body.data.id },
    });
    // unwrap throws the API's refusal as a MerchantApiError carrying its code and logId.
    await expect(second.GET('/api/v1/payin/balance').then(unwrap)).rejects.toMatchObject({
      name: 'MerchantApiError',
      httpStatus: 401,
      code: 'TOKEN_NOT_VALID',
      logId: expect.any(String),
    });
    expect((await client.GET('/api/v1/payin/balance')).response.status).toBe(200);
  });

  it('a deactivated merchant is refused until an operator activates it again', async () => {
    const id = merchant.merchantId;
    expect((await operator('POST', `merchants/${id}/deactivate`)).body.data.active).toBe(false);
    const refused = await client.GET('/api/v1/payin/balance');
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ status: false, message: 'Merchant not active', code: 'MERCHANT_NOT_ACTIVE' });
    expect((await operator('POST', `merchants/${id}/activate`)).body.data.active).toBe(true);
    expect((await client.GET('/api/v1/payin/balance')).response.status).toBe(200);
  });

  if (webhookJourney) {
    it('the paid QRIS and each final transfer status reached the webhook receiver, signed', async () => {
      const got = receiver as WebhookReceiver;
      await eventually(
        'three callbacks',
        async () => got.requests.length,
        (n) => n >= 3,
      );
      // The client's verifier: a body that does not verify with the merchant's secret throws.
      const events = got.requests.map((r) =>
        constructCallbackEvent<DisbursementCallback | PayinCallback>(
          r.rawBody,
          r.headers['x-callback-signature'] as string,
          merchant.webhookSecret,
        ),
      );
      expect(events.map((e) => e.type).sort()).toEqual([
        'disbursement.failed',
        'disbursement.succeeded',
        'payin.succeeded',
      ]);
      expect(events.find((e) => e.type === 'payin.succeeded')?.data).toMatchObject({
        merchantTrxId: 'E2E-PAYIN-1',
        status: 'success',
        netAmount: 496350,
      });
      expect(new Set(events.map((e) => e.id)).size).toBe(3);
    });
  }

  it('a batch of payouts: each row answered on its own, the good ones paid, the batch completed', async () => {
    const before = (await balance()).available;
    const batchId = `E2E-BATCH-${randomUUID()}`;
    const rows = [
      { merchantTrxId: `BT-${randomUUID().slice(0, 12)}`, bankCode: 'BCA', accountNo: '1234567891', amount: 10000 },
      { merchantTrxId: `BT-${randomUUID().slice(0, 12)}`, bankCode: 'NOPE', accountNo: '1234567892', amount: 10000 },
      { merchantTrxId: `BT-${randomUUID().slice(0, 12)}`, bankCode: 'BNI', accountNo: '0000000404', amount: 10000 },
      { merchantTrxId: `BT-${randomUUID().slice(0, 12)}`, bankCode: 'bri', accountNo: '1234567893', amount: 12500.5 },
    ];
    const submitted = await client.POST('/api/v1/disbursement/batch', { body: { batchId, rows } });
    expect(submitted.response.status).toBe(200);
    expect(unwrap(submitted)).toMatchObject({ rowCount: 4, accepted: 3, refused: 1 });
    expect(unwrap(submitted).rows[1]).toMatchObject({ result: 'refused', code: 'UNKNOWN_BANK_CODE' });
    const again = await client.POST('/api/v1/disbursement/batch', { body: { batchId, rows } });
    expect(unwrap(again)).toEqual(unwrap(submitted));
    const done = await eventually(
      'the batch completed',
      async () => unwrap(await client.GET('/api/v1/disbursement/batch/{batchId}', { params: { path: { batchId } } })),
      (b) => b.status === 'completed',
    );
    expect(done.counts).toMatchObject({ success: 2, refused: 2, checking: 0, pending: 0 });
    expect(done.rows.map((r) => [r.status, r.failureCode])).toEqual([
      ['success', null],
      ['refused', 'UNKNOWN_BANK_CODE'],
      ['refused', 'ACCOUNT_NOT_FOUND'],
      ['success', null],
    ]);
    const fees = done.rows.reduce((sum, r) => sum + (r.status === 'success' ? (r.fee ?? 0) : 0), 0);
    expect(done.totals).toMatchObject({ successAmount: 22500.5, successFee: fees });
    await eventually('the batch debited', balance, (b) => sen(before) - sen(b.available) === sen(22500.5) + sen(fees));
    const other = await client.GET('/api/v1/disbursement/batch/{batchId}', {
      params: { path: { batchId: 'NOT-MINE' } },
    });
    expect(other.response.status).toBe(404);
    expect(other.error).toMatchObject({ code: 'BATCH_NOT_FOUND' });
  });

  it('a QRIS refund: part of a paid pay-in given back, debited from pending, refunded by the acquirer, its callback signed', async () => {
    const merchantTrxId = `E2E-REFUND-${randomUUID().slice(0, 8)}`;
    const generated = unwrap(
      await client.POST('/api/v1/payin/qris/generate', { body: { merchantTrxId, amount: 100000, notifyUrl } }),
    );
    expect((await client.POST('/api/v1/payin/qris/sandbox/pay', { body: { merchantTrxId } })).response.status).toBe(
      200,
    );
    const before = await eventually('the pay-in recorded', balance, (b) => b.pending >= generated.netAmount);
    const refundId = `E2E-RF-${randomUUID().slice(0, 8)}`;
    const body = { merchantTrxId, refundId, amount: 40000, reason: 'QA journey' };
    const accepted = await client.POST('/api/v1/payin/refund', { body });
    expect(accepted.response.status).toBe(200);
    expect(unwrap(accepted)).toMatchObject({ refundId, merchantTrxId, amount: 40000, status: 'pending' });
    // The same request again: the same refund; another amount under its refundId: a conflict.
    expect(unwrap(await client.POST('/api/v1/payin/refund', { body }))).toMatchObject({ refundId, amount: 40000 });
    const conflict = await client.POST('/api/v1/payin/refund', { body: { ...body, amount: 1000 } });
    expect(conflict.error).toMatchObject({ code: 'REFUND_ID_CONFLICT' });
    const done = await eventually(
      'the refund final',
      async () => unwrap(await client.GET('/api/v1/payin/refund/{refundId}', { params: { path: { refundId } } })),
      (r) => r.status !== 'pending',
    );
    expect(done).toMatchObject({ status: 'success', refundNo: expect.any(String) });
    expect(sen((await balance()).pending)).toBe(sen(before.pending) - sen(40000));
    expect(unwrap(await client.POST('/api/v1/payin/qris/inquiry', { body: { merchantTrxId } }))).toMatchObject({
      refundedAmount: 40000,
      refundableAmount: 60000,
      refunds: [{ refundId, status: 'success' }],
    });
    if (receiver) {
      const got = receiver;
      const refunded = await eventually(
        'the payin.refunded callback',
        async () =>
          got.requests
            .map((r) =>
              constructCallbackEvent<PayinRefundCallback>(
                r.rawBody,
                r.headers['x-callback-signature'] as string,
                merchant.webhookSecret,
              ),
            )
            .filter((e) => e.type === 'payin.refunded'),
        (events) => events.length > 0,
      );
      expect(refunded[0].data).toMatchObject({ refundId, merchantTrxId, amount: 40000, status: 'success' });
    }
  });

  it('approval before money leaves: a payout above the threshold waits (debited, not sent), nothing decides it without a dashboard session, a finance user approves it once and it is paid', async () => {
    // The operator turns approvals on for this merchant: payouts above Rp 100,000 wait (an hour at most).
    const settings = { threshold: 100000, ttlSeconds: 3600, batches: false };
    const set = await operator('PUT', `merchants/${merchant.merchantId}/payout-approvals`, settings);
    expect(set.status).toBe(200);
    try {
      // A finance user of the merchant: created by the operator, its password set from its link, signed in.
      const email = `finance-${randomUUID().slice(0, 8)}@journeys.example`;
      const created = await ops('dashboard-users', {
        email,
        role: 'merchant',
        merchantId: merchant.merchantId,
        merchantRole: 'finance',
      });
      expect(created.status).toBe(201);
      const link = String(created.body.data.setPasswordUrl).split('/set-password/')[1];
      const password = `journeys ${randomUUID()}`;
      expect((await call('POST', '/dashboard/api/password', { token: link, password })).status).toBe(200);
      const finance = await signInDashboard(target.baseUrl, { email, password, role: 'merchant' });

      const before = (await balance()).available;
      const inquiry = unwrap(
        await client.POST('/api/v1/disbursement/account-inquiry', {
          body: {
            merchantTrxId: `PO-${randomUUID().slice(0, 12)}`,
            accountNo: '1234567890',
            bankCode: 'BCA',
            amount: 150000,
          },
        }),
      );
      const { fee: _fee, totalAmount, ...fields } = inquiry;
      const held = await client.POST('/api/v1/disbursement/transfer', { body: { ...fields, notifyUrl } });
      expect(held.response.status).toBe(200);
      expect(unwrap(held)).toMatchObject({ status: 'awaiting_approval' });
      // The money is held: debited, nothing sent.
      expect(
        unwrap(await client.POST('/api/v1/disbursement/inquiry', { body: { merchantTrxId: fields.merchantTrxId } })),
      ).toMatchObject({ status: 'awaiting_approval' });
      await eventually('the hold', balance, (b) => sen(before) - sen(b.available) === sen(totalAmount));

      const approve = (headers: Record<string, string>) =>
        call(
          'POST',
          `/dashboard/api/approvals/payouts/${fields.platformTrxId}/approve`,
          { password, note: 'journey' },
          headers,
        );
      // Not without a session; then the finance user approves, once.
      expect((await approve({})).status).toBe(401);
      const approved = await approve(finance.headers);
      // Through the container stage's faults an approval sent again may find its first attempt taken: 409, released all the same.
      expect(approved.status === 409 ? approved.body.code : approved.body.data?.approval).toBe(
        approved.status === 409 ? 'PAYOUT_NOT_AWAITING_APPROVAL' : 'approved',
      );
      expect((await approve(finance.headers)).body).toMatchObject({ code: 'PAYOUT_NOT_AWAITING_APPROVAL' });
      expect(await finalStatus(fields.merchantTrxId)).toMatchObject({ status: 'success', amount: 150000 });
      expect(sen(before) - sen((await balance()).available)).toBe(sen(totalAmount));
    } finally {
      await operator('PUT', `merchants/${merchant.merchantId}/payout-approvals`, { ...settings, threshold: null });
    }
  });

  // Last: against a shared deployment a run leaves no active test merchant behind.
  it('the merchant the suite created is deactivated at its end: its token no longer works', async () => {
    expect((await operator('POST', `merchants/${merchant.merchantId}/deactivate`)).body.data.active).toBe(false);
    expect((await operator('GET', `merchants/${merchant.merchantId}`)).body.data.active).toBe(false);
    expect((await client.GET('/api/v1/payin/balance')).response.status).toBe(401);
  });
});
