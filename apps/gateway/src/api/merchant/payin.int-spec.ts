import { randomUUID } from 'node:crypto';
import { computeSignature, decodeQris, hasValidCrc, QRIS_GUID } from '@pay/domain';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import { createMerchant, ledgerFor, paidNotification, sandboxPaidPayin } from '@pay/testing';
import { parseLedgerCommand } from '@pay/contracts';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';
import { AcquirerService } from '../../services/payin/acquirer.service';

describe('QRIS pay-in endpoints, gateway side (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let acquirer: AcquirerService;

  beforeAll(async () => {
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'fatal' }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
    acquirer = gateway.app.get(AcquirerService);
  });
  afterAll(() => gateway.close());

  const post = (path: string, token: string, body: object) =>
    request(http).post(`/api/v1/payin/qris/${path}`).set('token', token).send(body);
  const notify = (body: object, signature?: string) => {
    const raw = JSON.stringify(body);
    return request(gateway.internalServer)
      .post('/internal/acquirer/qris/notifications')
      .set('content-type', 'application/json')
      .set('x-acquirer-signature', signature ?? acquirer.sign(raw))
      .send(raw);
  };
  async function generate(token: string, over: object = {}) {
    const res = await post('generate', token, {
      merchantTrxId: `ORD-${randomUUID().slice(0, 8)}`,
      amount: 50000,
      ...over,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }
  const paid = paidNotification;
  const commandsFor = (merchantId: number) =>
    prisma.outbox.count({ where: { key: String(merchantId), topic: 'ledger.commands.v1' } });

  it('generates a dynamic QRIS with the fee of the spec example (50000 -> 500) and a valid EMVCo payload', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const res = await post('generate', token, {
      merchantTrxId: 'ORD-1',
      amount: 50000,
      expirySeconds: 600,
      withImage: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: true,
      message: 'QRIS generated',
      data: {
        merchantTrxId: 'ORD-1',
        platformTrxId: expect.stringMatching(/^QR\d{8}[0-9A-Z]{12}$/),
        amount: 50000,
        fee: { amount: 500, percentage: 0.7, fixed: 150 },
        netAmount: 49500,
        status: 'pending',
        expiredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        qrImage: expect.stringMatching(/^data:image\/png;base64,/),
      },
    });
    const payload = res.body.data.qrisPayload as string;
    expect(hasValidCrc(payload)).toBe(true);
    expect(payload).toContain(QRIS_GUID);
    expect(decodeQris(payload)).toMatchObject({
      nmid: merchant.nmid,
      amount: 5_000_000n,
      reference: res.body.data.platformTrxId,
      mcc: '5499',
    });
    const row = await prisma.payin.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect((row.expiresAt?.getTime() ?? 0) - row.createdAt.getTime()).toBeGreaterThanOrEqual(599_000);

    const retried = await post('generate', token, { merchantTrxId: 'ORD-1', amount: 50000 });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ platformTrxId: res.body.data.platformTrxId, qrisPayload: payload });
    expect(await prisma.payin.count({ where: { merchantId: merchant.id } })).toBe(1);
    const dup = await post('generate', token, { merchantTrxId: 'ORD-1', amount: 1000 });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DUPLICATE_MERCHANT_TRX_ID');
  });

  it('the same generate again after the code was paid returns that code with its status (success); another body is a conflict', async () => {
    const { token } = await createMerchant(prisma);
    const first = await post('generate', token, { merchantTrxId: 'ORD-PAID', amount: 50000 });
    expect((await notify(paid(first.body.data.platformTrxId))).status).toBe(200);
    const again = await post('generate', token, { merchantTrxId: 'ORD-PAID', amount: 50000 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: true,
      message: 'QRIS generated',
      data: {
        platformTrxId: first.body.data.platformTrxId,
        qrisPayload: first.body.data.qrisPayload,
        status: 'success',
      },
    });
    const other = await post('generate', token, {
      merchantTrxId: 'ORD-PAID',
      amount: 50000,
      notifyUrl: 'https://shop.example/cb',
    });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('DUPLICATE_MERCHANT_TRX_ID');
  });

  it.each([
    [{ amount: 999 }, /^amount: must be between 1000 and 10000000$/],
    [{ amount: 10000000.01 }, /^amount: must be between/],
    [{ amount: 1.234 }, /^amount: /],
    [{ expirySeconds: 30 }, /^expirySeconds: /],
    [{ expirySeconds: 86401 }, /^expirySeconds: must be between 60 and 86400$/],
    [{ merchantTrxId: '' }, /^merchantTrxId: /],
  ])('refuses %p with a validation error and stores nothing', async (over, message) => {
    const { merchant, token } = await createMerchant(prisma);
    const res = await post('generate', token, { merchantTrxId: 'ORD-X', amount: 50000, ...over });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
    expect(res.body.message).toMatch(message);
    expect(await prisma.payin.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('an acquirer notification marks the pay-in paid and asks the ledger to record it; the same notification again changes nothing', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const code = await generate(token);
    const body = paid(code.platformTrxId);
    const first = await notify(body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: true,
      message: 'Notification accepted',
      data: { platformTrxId: code.platformTrxId, status: 'success' },
    });
    const again = await notify(body);
    expect(again.status).toBe(200);
    expect(again.body.message).toBe('Notification already processed');
    expect(await commandsFor(merchant.id)).toBe(1);
    const command = await prisma.outbox.findFirstOrThrow({
      where: { key: String(merchant.id), topic: 'ledger.commands.v1' },
    });
    expect(command.payload).toMatchObject({ type: 'payin.record', amount: '5000000', fee: '50000' });

    const inquiry = await post('inquiry', token, { merchantTrxId: code.merchantTrxId });
    expect(inquiry.body).toEqual({
      logId: expect.any(String),
      status: true,
      message: 'Query success',
      data: {
        idMerchant: merchant.id,
        merchantName: merchant.name,
        merchantTrxId: code.merchantTrxId,
        platformTrxId: code.platformTrxId,
        amount: 50000,
        fee: { amount: 500, percentage: 0.7, fixed: 150 },
        netAmount: 49500,
        status: 'success',
        success_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        additionalInfo: { rrn: '123456789012', nmid: merchant.nmid },
        // Its refunds (issue 44): none yet, all of it refundable
        refundedAmount: 0,
        refundableAmount: 50000,
        refunds: [],
      },
    });
    // A second, different payment of the same code is refused and recorded.
    const second = await notify(paid(code.platformTrxId));
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('PAYIN_ALREADY_FINAL');
    expect(
      await prisma.acquirerNotification.groupBy({
        by: ['outcome'],
        where: { platformTrxId: code.platformTrxId },
        _count: true,
      }),
    ).toEqual(
      expect.arrayContaining([
        { outcome: 'accepted', _count: 1 },
        { outcome: 'duplicate', _count: 1 },
        { outcome: 'refused', _count: 1 },
      ]),
    );
  });

  it('refuses and records an amount mismatch, an unknown reference and an expired code, crediting nothing', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const code = await generate(token);
    const mismatch = await notify(paid(code.platformTrxId, { amount: 49999 }));
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({
      code: 'AMOUNT_MISMATCH',
      message: 'Paid amount does not match the QRIS amount',
    });
    const unknown = await notify(paid('QR00000000NOTAREALCODE'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'PAYIN_NOT_FOUND', message: 'QRIS payment reference not found' });

    const late = await generate(token, { expirySeconds: 60 });
    await prisma.payin.update({
      where: { platformTrxId: late.platformTrxId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await notify(paid(late.platformTrxId));
    expect(expired.status).toBe(422);
    expect(expired.body).toMatchObject({ code: 'QR_EXPIRED', message: 'QRIS code has expired' });
    expect((await post('inquiry', token, { merchantTrxId: late.merchantTrxId })).body.data.status).toBe('expired');

    expect(await commandsFor(merchant.id)).toBe(0);
    expect(await prisma.payin.count({ where: { merchantId: merchant.id, status: 'success' } })).toBe(0);
    expect(
      await prisma.acquirerNotification.count({
        where: {
          outcome: 'refused',
          reason: { in: ['AMOUNT_MISMATCH', 'QR_EXPIRED'] },
          platformTrxId: { in: [code.platformTrxId, late.platformTrxId] },
        },
      }),
    ).toBe(2);
    expect(
      await prisma.acquirerNotification.count({
        where: { platformTrxId: 'QR00000000NOTAREALCODE', reason: 'UNKNOWN_REFERENCE' },
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('refuses a notification whose signature does not verify, recording nothing', async () => {
    const { token } = await createMerchant(prisma);
    const code = await generate(token);
    const body = paid(code.platformTrxId);
    const forged = await notify(body, acquirer.sign(JSON.stringify({ ...body, amount: 1 })));
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ code: 'SIGNATURE_INVALID', message: 'Signature not valid' });
    expect((await notify(body, 'nonsense')).status).toBe(401);
    expect(await prisma.acquirerNotification.count({ where: { platformTrxId: code.platformTrxId } })).toBe(0);
  });

  it('the sandbox payer pays through the same acquirer path; a failed payment reads failed', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const code = await generate(token);
    const res = await post('sandbox/pay', token, { merchantTrxId: code.merchantTrxId, issuer: 'GOPAY' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'success',
      additionalInfo: { rrn: expect.stringMatching(/^\d{12}$/), nmid: merchant.nmid },
    });
    expect(
      await prisma.acquirerNotification.count({ where: { platformTrxId: code.platformTrxId, outcome: 'accepted' } }),
    ).toBe(1);

    const other = await generate(token);
    const failed = await post('sandbox/pay', token, { merchantTrxId: other.merchantTrxId, status: 'failed' });
    expect(failed.body.data).toMatchObject({ status: 'failed', success_at: null });
    const mismatch = await post('sandbox/pay', token, {
      merchantTrxId: (await generate(token)).merchantTrxId,
      amount: 1,
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.code).toBe('AMOUNT_MISMATCH');
  });

  it("marks the sandbox payer's pay-in and its ledger command as sandbox money; the acquirer's own carries no mark", async () => {
    const { merchant, token } = await createMerchant(prisma);
    const sandboxCode = await generate(token);
    expect((await post('sandbox/pay', token, { merchantTrxId: sandboxCode.merchantTrxId })).status).toBe(200);
    const acquirerCode = await generate(token);
    expect((await notify(paid(acquirerCode.platformTrxId))).status).toBe(200);

    const rows = await prisma.payin.findMany({
      where: { merchantId: merchant.id },
      select: { platformTrxId: true, sandbox: true },
    });
    expect(rows).toEqual(
      expect.arrayContaining([
        { platformTrxId: sandboxCode.platformTrxId, sandbox: true },
        { platformTrxId: acquirerCode.platformTrxId, sandbox: false },
      ]),
    );
    const commands = await prisma.outbox.findMany({
      where: { key: String(merchant.id), topic: 'ledger.commands.v1' },
      orderBy: { id: 'asc' },
    });
    expect(commands.map((c) => c.payload)).toEqual([
      expect.objectContaining({ type: 'payin.record', sandbox: true }),
      expect.not.objectContaining({ sandbox: expect.anything() }),
    ]);
  });

  it('sandbox settle-now: paid pay-ins move from pending to available at once (not T+1); nothing waiting says so', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const none = await post('sandbox/settle', token, {});
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ message: 'Nothing to settle', data: { payinCount: 0, requested: false } });
    await sandboxPaidPayin(prisma, merchant.id, 5_000_000n, 50_000n);
    const res = await post('sandbox/settle', token, {});
    expect(res.body).toMatchObject({ message: 'Settlement requested', data: { payinCount: 1, requested: true } });
    // What the ledger is asked: the settlement of that pay-in, applied here as the ledger service would.
    const command = await prisma.outbox.findFirstOrThrow({
      where: {
        key: String(merchant.id),
        topic: 'ledger.commands.v1',
        payload: { path: ['type'], equals: 'settlement.credit' },
      },
    });
    expect((await ledgerFor(prisma).apply(parseLedgerCommand(command.payload))).outcome).toBe('applied');
    expect(await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } })).toMatchObject({
      available: 4_950_000n,
      pending: 0n,
    });
    // Asked again: nothing more.
    expect((await post('sandbox/settle', token, {})).body.message).toBe('Nothing to settle');
  });

  it('a transfer refused for its balance says, in the sandbox, how to settle now', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const inquiry = await request(http)
      .post('/api/v1/disbursement/account-inquiry')
      .set('token', token)
      .send({ merchantTrxId: 'PO-1', accountNo: '1234567890', bankCode: 'BCA', amount: 10000 });
    expect(inquiry.status).toBe(200);
    const transfer = request(http).post('/api/v1/disbursement/transfer').set('token', token).send({
      merchantTrxId: 'PO-1',
      accountNo: '1234567890',
      bankCode: 'BCA',
      amount: 10000,
      accountName: inquiry.body.data.accountName,
      platformTrxId: inquiry.body.data.platformTrxId,
      notifyUrl: 'https://shop.example/cb',
    });
    // No ledger runs here: the debit command is applied as the ledger would, then the answer read.
    const [res] = await Promise.all([
      transfer,
      (async () => {
        for (let i = 0; i < 100; i++) {
          const command = await prisma.outbox.findFirst({
            where: {
              topic: 'ledger.commands.v1',
              key: String(merchant.id),
              payload: { path: ['type'], equals: 'payout.debit' },
            },
          });
          if (command) return ledgerFor(prisma).apply(parseLedgerCommand(command.payload));
          await new Promise((r) => setTimeout(r, 50));
        }
      })(),
    ]);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('INSUFFICIENT_BALANCE');
    expect(res.body.message).toMatch(/Sandbox: .*POST \/api\/v1\/payin\/qris\/sandbox\/settle settles them now$/);
  });

  it('applies the pay-in IP allowlist to every /api/v1/payin endpoint', async () => {
    const { merchant, token, admin } = await createMerchant(prisma);
    await admin.setAllowlist(merchant.id, ['203.0.113.0/24']);
    await admin.setAllowlistEnabled(merchant.id, true);
    for (const path of ['generate', 'inquiry', 'sandbox/pay']) {
      const res = await post(path, token, { merchantTrxId: 'X', amount: 50000 });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('IP_NOT_ALLOWED');
    }
  });

  it('another merchant cannot see a pay-in', async () => {
    const a = await createMerchant(prisma);
    const b = await createMerchant(prisma);
    const code = await generate(a.token);
    const res = await post('inquiry', b.token, { merchantTrxId: code.merchantTrxId });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('TRANSACTION_NOT_FOUND');
    expect((await post('sandbox/pay', b.token, { merchantTrxId: code.merchantTrxId })).status).toBe(404);
  });
});

describe('QRIS sandbox in production configuration', () => {
  it('is off by default, and production requires an acquirer secret', async () => {
    expect(() =>
      loadConfig(gatewayConfigSchema, { NODE_ENV: 'production', DATABASE_URL: process.env.DATABASE_URL }),
    ).toThrow(/ACQUIRER_SECRET: is required when NODE_ENV=production/);
    const gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        NODE_ENV: 'production',
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        ACQUIRER_SECRET: 'prod-secret-0123456789abcdef0123456789',
        S3_ACCESS_KEY: 'payin-test-recon',
        S3_SECRET_KEY: 'payin-test-recon-secret-0123456789abcdef',
      }),
    );
    try {
      const { token } = await createMerchant(gateway.prisma);
      const res = await request(gateway.app.getHttpServer())
        .post('/api/v1/payin/qris/sandbox/pay')
        .set('token', token)
        .send({ merchantTrxId: 'X' });
      expect(res.status).toBe(404);
    } finally {
      await gateway.close();
    }
  });
});

describe('acquirer secret rotation (ACQUIRER_SECRET_PREVIOUS)', () => {
  const NEW = 'rotation-new-secret-0123456789abcdef0123';
  const OLD = 'rotation-old-secret-0123456789abcdef0123';

  it('accepts notifications signed with the new or a previous secret, and refuses any other', async () => {
    const gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        ACQUIRER_SECRET: NEW,
        ACQUIRER_SECRET_PREVIOUS: OLD,
      }),
    );
    try {
      // A well-formed notice for a pay-in that does not exist: past the signature, refused as unknown.
      const raw = JSON.stringify({
        acquirerReference: `ACQ-${randomUUID()}`,
        platformTrxId: randomUUID(),
        amount: 50000,
        status: 'success',
        paidAt: new Date().toISOString(),
      });
      const t = Math.floor(Date.now() / 1000);
      const send = (secret: string) =>
        request(gateway.internalServer)
          .post('/internal/acquirer/qris/notifications')
          .set('content-type', 'application/json')
          .set('x-acquirer-signature', `t=${t},v1=${computeSignature(secret, t, raw)}`)
          .send(raw);
      for (const secret of [NEW, OLD]) {
        const res = await send(secret);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('PAYIN_NOT_FOUND');
      }
      const forged = await send('dev-only-acquirer-secret-0123456789abcdef');
      expect(forged.status).toBe(401);
      expect(forged.body.code).toBe('SIGNATURE_INVALID');
      // The sandbox and tests sign with the new secret only.
      expect(gateway.app.get(AcquirerService).sign(raw, new Date(t * 1000))).toBe(
        `t=${t},v1=${computeSignature(NEW, t, raw)}`,
      );
    } finally {
      await gateway.close();
    }
  });
});
