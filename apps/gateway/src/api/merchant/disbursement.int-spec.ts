import { randomUUID } from 'node:crypto';
import { SANDBOX_ACCOUNTS, sandboxHolderName } from '@pay/bank-rail';
import { ledgerCommandId, parseLedgerCommand } from '@pay/contracts';
import type { PrismaClient } from '@pay/persistence';
import { loadConfig } from '@pay/platform';
import {
  changeUnannounced,
  createDisbursement,
  createMerchant,
  fundMerchant,
  ledgerFor,
  madeUpNames,
} from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createGatewayApp, type GatewayApp, gatewayConfigSchema } from '../../testing/test-gateway';

/**
 * The gateway's side of disbursement against the real Postgres, with no ledger running:
 * everything refused before the ledger is asked, and the wait for the ledger's decision.
 * The whole flow through the ledger and payout processes is in e2e/disbursement.e2e-spec.ts.
 */
describe('disbursement endpoints, gateway side (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  let undoNames: () => void;

  beforeAll(async () => {
    // The compose journeys' receiver `e2e` and another service, both on a private address.
    undoNames = madeUpNames({ e2e: ['172.18.0.5'], other: ['172.18.0.5'] });
    gateway = await createGatewayApp(
      loadConfig(gatewayConfigSchema, {
        DATABASE_URL: process.env.DATABASE_URL,
        LOG_LEVEL: 'fatal',
        RAIL_SANDBOX_LATENCY_MS: '0',
        TRANSFER_DECISION_TIMEOUT_MS: '300',
        WEBHOOK_ALLOW_PRIVATE_HOSTS: 'e2e',
      }),
    );
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(async () => {
    undoNames();
    await gateway.close();
  });

  const post = (path: string, token: string, body: object) =>
    request(http).post(`/api/v1/disbursement/${path}`).set('token', token).send(body);
  const inquiryBody = (over: object = {}) => ({
    merchantTrxId: `INV-${randomUUID().slice(0, 8)}`,
    accountNo: '1234567890',
    bankCode: 'BCA',
    amount: 100000,
    ...over,
  });

  async function inquire(token: string, over: object = {}) {
    const res = await post('account-inquiry', token, inquiryBody(over));
    expect(res.status).toBe(200);
    return res.body.data as {
      merchantTrxId: string;
      platformTrxId: string;
      accountNo: string;
      accountName: string;
      bankCode: string;
      amount: number;
    };
  }
  const transferBody = (inq: Awaited<ReturnType<typeof inquire>>, over: object = {}) => ({
    merchantTrxId: inq.merchantTrxId,
    platformTrxId: inq.platformTrxId,
    accountNo: inq.accountNo,
    accountName: inq.accountName,
    bankCode: inq.bankCode,
    amount: inq.amount,
    notifyUrl: 'https://merchant.example/callback',
    ...over,
  });
  const counts = async (merchantId: number) => ({
    inquiries: await prisma.disbursementInquiry.count({ where: { merchantId } }),
    disbursements: await prisma.disbursement.count({ where: { merchantId } }),
    balance: await prisma.balance.findUnique({ where: { merchantId }, select: { available: true, pending: true } }),
    events: await prisma.ledgerEvent.count({ where: { merchantId } }),
    outbox: await prisma.outbox.count({ where: { key: String(merchantId) } }),
  });

  it('account inquiry answers spec 2.5 with the holder name, the flat fee and totalAmount', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const res = await post('account-inquiry', token, {
      merchantTrxId: 'INV-001',
      accountNo: '1234567890',
      bankCode: 'BCA',
      amount: 100000,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      logId: expect.any(String),
      status: true,
      message: 'Inquiry success',
      data: {
        merchantTrxId: 'INV-001',
        platformTrxId: expect.stringMatching(/^DSB\d{8}[0-9A-Z]{12}$/),
        accountNo: '1234567890',
        accountName: sandboxHolderName('BCA', '1234567890'),
        bankCode: 'BCA',
        amount: 100000,
        fee: { amount: 2500, percentage: 0, fixed: 2500 },
        totalAmount: 102500,
      },
    });
    const stored = await prisma.disbursementInquiry.findUniqueOrThrow({
      where: { platformTrxId: res.body.data.platformTrxId },
    });
    expect(stored).toMatchObject({ merchantId: merchant.id, amount: 10000000n, fee: 250000n });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeGreaterThanOrEqual(899_000);
  });

  it('bank codes are case-insensitive (bca is BCA, stored and echoed as listed); GET /api/v1/banks lists them', async () => {
    const { token } = await createMerchant(prisma);
    const res = await post('account-inquiry', token, inquiryBody({ bankCode: ' bca ' }));
    expect(res.status).toBe(200);
    expect(res.body.data.bankCode).toBe('BCA');
    const banks = await request(http).get('/api/v1/banks').set('token', token);
    expect(banks.status).toBe(200);
    expect(banks.body).toMatchObject({ status: true, message: 'Query success' });
    expect(banks.body.data).toContainEqual({ code: 'BCA', name: 'Bank Central Asia', kind: 'bank' });
    expect(banks.body.data.map((b: { code: string }) => b.code)).toEqual(
      expect.arrayContaining(['BNI', 'BRI', 'MANDIRI', 'DANA', 'OVO', 'GOPAY']),
    );
    expect((await request(http).get('/api/v1/banks')).status).toBe(401);
  });

  it.each([
    [{ merchantTrxId: undefined }, 400, 'VALIDATION_ERROR', /^merchantTrxId: /],
    [{ amount: '100000' }, 400, 'VALIDATION_ERROR', /^amount: /],
    [{ amount: 100.123 }, 400, 'VALIDATION_ERROR', /^amount: /],
    [{ amount: -5 }, 400, 'VALIDATION_ERROR', /^amount: /],
    [{ amount: 9999 }, 400, 'VALIDATION_ERROR', /^amount: must be between 10000 and 250000000$/],
    [{ amount: 250000001 }, 400, 'VALIDATION_ERROR', /^amount: must be between/],
    [{ extra: 1 }, 400, 'VALIDATION_ERROR', /^extra: property extra should not exist$/],
    [{ merchantTrxId: 'has space' }, 400, 'VALIDATION_ERROR', /^merchantTrxId: /],
    [
      { bankCode: 'XYZ' },
      400,
      'UNKNOWN_BANK_CODE',
      /^bankCode: unknown bank or e-wallet code "XYZ"; the codes \(GET \/api\/v1\/banks\): BCA, BNI, .*, DANA, OVO/,
    ],
    [{ accountNo: '12ab' }, 400, 'VALIDATION_ERROR', /^accountNo: must be 6 to 20 digits/],
    [{ bankCode: 'OVO', accountNo: '1234567890' }, 400, 'VALIDATION_ERROR', /^accountNo: must be the mobile number/],
    [{ accountNo: SANDBOX_ACCOUNTS.notFound.bank }, 422, 'ACCOUNT_NOT_FOUND', /^Account not found$/],
    [
      { bankCode: 'DANA', accountNo: SANDBOX_ACCOUNTS.blocked.ewallet },
      422,
      'ACCOUNT_BLOCKED',
      /^Account is closed or blocked$/,
    ],
  ])('account inquiry with %p -> %i %s, and nothing is stored', async (over, status, code, message) => {
    const { merchant, token } = await createMerchant(prisma);
    const res = await post('account-inquiry', token, inquiryBody(over));
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status: false, code, logId: expect.any(String) });
    expect(res.body.message).toMatch(message);
    expect(await prisma.disbursementInquiry.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('refuses a transfer without a matching, unexpired inquiry of the same merchant, naming the field, and changes nothing', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const other = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const inq = await inquire(token);
    const otherInq = await inquire(other.token);
    const before = await counts(merchant.id);

    const cases: [object, number, string, string][] = [
      [{ platformTrxId: 'DSB-unknown' }, 404, 'INQUIRY_NOT_FOUND', 'Account inquiry not found'],
      [{ platformTrxId: otherInq.platformTrxId }, 404, 'INQUIRY_NOT_FOUND', 'Account inquiry not found'],
      [{ accountNo: '1234567891' }, 422, 'INQUIRY_MISMATCH', 'accountNo does not match the account inquiry'],
      [{ bankCode: 'BNI' }, 422, 'INQUIRY_MISMATCH', 'bankCode does not match the account inquiry'],
      [{ amount: 100001 }, 422, 'INQUIRY_MISMATCH', 'amount does not match the account inquiry'],
      [{ accountName: 'SOMEONE ELSE' }, 422, 'INQUIRY_MISMATCH', 'accountName does not match the account inquiry'],
      [
        { notifyUrl: 'ftp://merchant.example/cb' },
        400,
        'VALIDATION_ERROR',
        'notifyUrl: must be an absolute http or https URL',
      ],
      [{ notifyUrl: '/callback' }, 400, 'VALIDATION_ERROR', 'notifyUrl: must be an absolute http or https URL'],
      [{ notifyUrl: undefined }, 400, 'VALIDATION_ERROR', 'notifyUrl: is required'],
      [
        { notifyUrl: 'merchant.example/cb' },
        400,
        'VALIDATION_ERROR',
        'notifyUrl: must be an absolute http or https URL',
      ],
    ];
    for (const [over, status, code, message] of cases) {
      const res = await post('transfer', token, transferBody(inq, over));
      expect({ over, status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        over,
        status,
        code,
        message,
      });
    }

    await prisma.disbursementInquiry.update({
      where: { platformTrxId: inq.platformTrxId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await post('transfer', token, transferBody(inq));
    expect(expired.status).toBe(422);
    expect(expired.body).toMatchObject({
      code: 'INQUIRY_EXPIRED',
      message: 'Account inquiry has expired; make a new account inquiry',
    });

    expect(await counts(merchant.id)).toEqual(before);
  });

  it('takes a notifyUrl on a host named in WEBHOOK_ALLOW_PRIVATE_HOSTS resolving to a private address; no other host there', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const inq = await inquire(token);

    const other = await post('transfer', token, transferBody(inq, { notifyUrl: 'http://other:4000/cb' }));
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({
      code: 'NOTIFY_URL_NOT_ALLOWED',
      message: expect.stringContaining('notifyUrl: other resolves to 172.18.0.5, a private or reserved address'),
    });
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(0);

    const listed = await post('transfer', token, transferBody(inq, { notifyUrl: 'http://E2E:4000/cb' }));
    expect(listed.body.code).toBe('TRANSFER_PROCESSING'); // recorded; the ledger (not running here) decides it
    expect(await prisma.disbursement.findFirstOrThrow({ where: { merchantId: merchant.id } })).toMatchObject({
      notifyUrl: 'http://E2E:4000/cb',
    });
  });

  it('answers TRANSFER_PROCESSING when the ledger does not decide in time; the same request later gets the decision', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const inq = await inquire(token);

    const first = await post('transfer', token, transferBody(inq));
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('1');
    expect(first.body).toMatchObject({
      code: 'TRANSFER_PROCESSING',
      message: 'Transfer is being processed; send the same request again to get its result',
    });
    const funding = await prisma.disbursement.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(funding.status).toBe('funding');
    const command = await prisma.outbox.findFirstOrThrow({
      where: { key: String(merchant.id), topic: 'ledger.commands.v1' },
    });

    // The ledger (not running in this test) decides the command the gateway wrote to the outbox.
    await ledgerFor(prisma).apply(parseLedgerCommand(command.payload));
    const retry = await post('transfer', token, transferBody(inq));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({
      logId: expect.any(String),
      status: true,
      message: 'Request diterima, akan segera diproses',
      data: {
        merchantTrxId: inq.merchantTrxId,
        platformTrxId: inq.platformTrxId,
        amount: 100000,
        fee: { amount: 2500, percentage: 0, fixed: 2500 },
        totalAmount: 102500,
        status: 'pending',
      },
    });
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect(
      (await prisma.ledgerCommand.findUniqueOrThrow({ where: { commandId: ledgerCommandId.payoutDebit(funding.id) } }))
        .outcome,
    ).toBe('applied');

    // A different request under the same merchantTrxId is a duplicate, and the original is untouched.
    const inq2 = await inquire(token);
    const dup = await post('transfer', token, transferBody(inq2, { merchantTrxId: inq.merchantTrxId }));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      code: 'DUPLICATE_MERCHANT_TRX_ID',
      message: 'merchantTrxId has already been used for another transfer',
    });
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: funding.id } })).toMatchObject({
      status: 'pending',
      platformTrxId: inq.platformTrxId,
    });
    // One transfer per inquiry: the used inquiry cannot pay for a second transfer.
    const reuse = await post(
      'transfer',
      token,
      transferBody(inq, { merchantTrxId: `INV-${randomUUID().slice(0, 8)}` }),
    );
    expect(reuse.status).toBe(409);
    expect(reuse.body).toMatchObject({
      code: 'INQUIRY_ALREADY_USED',
      message: 'Account inquiry has already been used for another transfer',
    });
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(1);
    // And an account inquiry for a merchantTrxId already transferred is refused the same way.
    const again = await post('account-inquiry', token, inquiryBody({ merchantTrxId: inq.merchantTrxId }));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('DUPLICATE_MERCHANT_TRX_ID');
  });

  it('records the transfer and its debit command (the inquiry amount and fee) in one go; a refused attempt frees the merchantTrxId and the inquiry', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [50_000_00n]); // less than amount + fee: the ledger refuses
    const inq = await inquire(token);

    expect((await post('transfer', token, transferBody(inq))).status).toBe(503);
    const first = await prisma.disbursement.findFirstOrThrow({ where: { merchantId: merchant.id } });
    expect(first).toMatchObject({
      status: 'funding',
      merchantTrxId: inq.merchantTrxId,
      platformTrxId: inq.platformTrxId,
      amount: 10000000n,
      fee: 250000n,
    });
    const command = await prisma.outbox.findFirstOrThrow({
      where: { key: String(merchant.id), topic: 'ledger.commands.v1' },
    });
    expect(command.payload).toMatchObject({
      type: 'payout.debit',
      commandId: ledgerCommandId.payoutDebit(first.id),
      merchantId: merchant.id,
      payoutId: first.id,
      amount: '10000000',
      fee: '250000',
    });
    expect(command.headers).toMatchObject({ 'message-id': ledgerCommandId.payoutDebit(first.id) });

    await ledgerFor(prisma).apply(parseLedgerCommand(command.payload));
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: 'refused',
    });
    // The same request again is a new attempt: the refused one no longer holds the merchantTrxId or the inquiry.
    expect((await post('transfer', token, transferBody(inq))).body.code).toBe('TRANSFER_PROCESSING');
    const attempts = await prisma.disbursement.findMany({
      where: { merchantId: merchant.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(attempts.map((d) => d.status)).toEqual(['refused', 'funding']);
    expect(await prisma.outbox.count({ where: { key: String(merchant.id), topic: 'ledger.commands.v1' } })).toBe(2);
  });

  it('a concurrent pair of the same request records one transfer and one debit command', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const inq = await inquire(token);

    const answers = await Promise.all(Array.from({ length: 4 }, () => post('transfer', token, transferBody(inq))));
    expect(answers.map((r) => r.body.code)).toEqual(Array(4).fill('TRANSFER_PROCESSING'));
    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect(await prisma.outbox.count({ where: { key: String(merchant.id), topic: 'ledger.commands.v1' } })).toBe(1);
  });

  it('concurrent transfers that share an inquiry or a merchantTrxId: one is recorded, the others refused with their code', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const inq = await inquire(token);
    const sameInquiry = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        post('transfer', token, transferBody(inq, { merchantTrxId: `${inq.merchantTrxId}-${i}` })),
      ),
    );
    expect(sameInquiry.map((r) => r.body.code).sort()).toEqual([
      'INQUIRY_ALREADY_USED',
      'INQUIRY_ALREADY_USED',
      'INQUIRY_ALREADY_USED',
      'TRANSFER_PROCESSING',
    ]);

    const inquiries = await Promise.all(Array.from({ length: 4 }, () => inquire(token)));
    const sameTrxId = await Promise.all(
      inquiries.map((i) => post('transfer', token, transferBody(i, { merchantTrxId: 'INV-SHARED' }))),
    );
    expect(sameTrxId.map((r) => r.body.code).sort()).toEqual([
      'DUPLICATE_MERCHANT_TRX_ID',
      'DUPLICATE_MERCHANT_TRX_ID',
      'DUPLICATE_MERCHANT_TRX_ID',
      'TRANSFER_PROCESSING',
    ]);

    expect(await prisma.disbursement.count({ where: { merchantId: merchant.id } })).toBe(2);
    expect(await prisma.outbox.count({ where: { key: String(merchant.id), topic: 'ledger.commands.v1' } })).toBe(2);
  });

  it('disbursement inquiry of a failed payout adds why (failureCode, failureReason) after the spec fields; a successful one has neither', async () => {
    const { merchant, token } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000n]);
    const { disbursement: failed } = await createDisbursement(prisma, merchant.id, {
      amount: 100_000n,
      fee: 2_500n,
      outcome: 'failed',
    });
    const res = await post('inquiry', token, { merchantTrxId: failed.merchantTrxId });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual([
      'idMerchant',
      'merchantName',
      'merchantTrxId',
      'platformTrxId',
      'accountNo',
      'accountName',
      'amount',
      'fee',
      'totalAmount',
      'status',
      'success_at',
      'failureCode',
      'failureReason',
    ]);
    expect(res.body.data).toMatchObject({
      status: 'failed',
      fee: { amount: 0 },
      totalAmount: 1000,
      failureCode: 'REJECTED_BY_BANK',
      failureReason: 'Rejected by the beneficiary bank',
    });
    const { disbursement: paid } = await createDisbursement(prisma, merchant.id, {
      amount: 100_000n,
      fee: 2_500n,
      outcome: 'success',
    });
    const ok = (await post('inquiry', token, { merchantTrxId: paid.merchantTrxId })).body.data;
    expect(ok.status).toBe('success');
    expect(ok).not.toHaveProperty('failureCode');
    expect(ok).not.toHaveProperty('failureReason');
  });

  it('disbursement inquiry of an unknown merchantTrxId is 404 TRANSACTION_NOT_FOUND', async () => {
    const { token } = await createMerchant(prisma);
    const res = await post('inquiry', token, { merchantTrxId: 'nope' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      logId: expect.any(String),
      status: false,
      message: 'Transaction not found',
      code: 'TRANSACTION_NOT_FOUND',
    });
  });

  const unannounced = (text: string, values: unknown[]) =>
    changeUnannounced(process.env.DATABASE_URL as string, text, values);

  it('a token revoked, or a merchant deactivated, after the gateway last saw it changes nothing: the inquiry and the transfer statements refuse it (401)', async () => {
    const { merchant, token, tokenId } = await createMerchant(prisma);
    await fundMerchant(prisma, merchant.id, [1_000_000_00n]);
    const inq = await inquire(token); // the token is now in the gateway's auth cache
    await unannounced('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [tokenId]);
    const before = await counts(merchant.id);
    expect((await post('account-inquiry', token, inquiryBody())).body).toMatchObject({
      status: false,
      code: 'TOKEN_NOT_VALID',
      message: 'Token not valid',
    });
    expect((await post('transfer', token, transferBody(inq))).body).toMatchObject({
      status: false,
      code: 'TOKEN_NOT_VALID',
    });
    expect(await counts(merchant.id)).toEqual(before);
    // The balance GET's statement checks the token too: refused at once.
    expect((await request(http).get('/api/v1/payin/balance').set('token', token)).status).toBe(401);

    const second = await createMerchant(prisma);
    const inq2 = await inquire(second.token);
    await unannounced('UPDATE merchants SET is_active = false WHERE id = $1', [second.merchant.id]);
    const before2 = await counts(second.merchant.id);
    expect((await post('account-inquiry', second.token, inquiryBody())).body).toMatchObject({
      status: false,
      code: 'MERCHANT_NOT_ACTIVE',
      message: 'Merchant not active',
    });
    expect((await post('transfer', second.token, transferBody(inq2))).body).toMatchObject({
      status: false,
      code: 'MERCHANT_NOT_ACTIVE',
    });
    expect(await counts(second.merchant.id)).toEqual(before2);
  });

  it('a revocation or a fee change through the admin is heard at once: the next inquiry is refused or quotes the new fee', async () => {
    const { merchant, token, tokenId, admin } = await createMerchant(prisma);
    await inquire(token);
    await admin.setFees(merchant.id, { payoutFeeFlat: 300_000n });
    expect((await post('account-inquiry', token, inquiryBody())).body.data).toMatchObject({
      fee: { amount: 3000, percentage: 0, fixed: 3000 },
      totalAmount: 103000,
    });
    await admin.revokeToken(tokenId);
    const res = await post('account-inquiry', token, inquiryBody());
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'TOKEN_NOT_VALID' });
  });
});
