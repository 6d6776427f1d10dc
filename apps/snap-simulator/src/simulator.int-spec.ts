import { createHash, createVerify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { type SnapSimulator, startSnapSimulator } from '@pay/devstack';
import { call, type Caller, jakartaNow, token } from './testing/signed-requests';

/** The simulator as its own process: every check, every magic account, the QRIS acquirer. */
describe('SNAP simulator (process)', () => {
  let sim: SnapSimulator;
  let caller: Caller;
  let accessToken: string;
  const notifications: { headers: Record<string, unknown>; body: string; valid: boolean }[] = [];
  let receiver: Server;
  let notifyAnswer = { status: 200, body: { responseCode: '2005200', responseMessage: 'Successful' } };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const digest = createHash('sha256').update(body).digest('hex');
        const valid = createVerify('sha256')
          .update(`POST:${req.url}:${digest}:${req.headers['x-timestamp']}`)
          .verify(sim.providerPublicKeyPem, String(req.headers['x-signature']), 'base64');
        notifications.push({ headers: req.headers, body, valid });
        res.writeHead(notifyAnswer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(notifyAnswer.body));
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    sim = await startSnapSimulator({
      notifyUrl: `http://127.0.0.1:${port}/snap/v1.0/qr/qr-mpm-notify`,
      delayMs: 300,
      hangMs: 400,
    });
    caller = {
      baseUrl: sim.baseUrl,
      clientId: sim.clientId,
      clientSecret: sim.clientSecret,
      privateKeyPem: sim.clientPrivateKeyPem,
      channelId: sim.channelId,
    };
    const t = await token(caller);
    expect(t.status).toBe(200);
    accessToken = t.body.accessToken;
  });

  afterAll(async () => {
    await sim?.stop();
    receiver?.close();
  });

  it('hands our services their settings and the files they read', () => {
    const env = sim.env();
    expect(env).toMatchObject({
      SNAP_BASE_URL: sim.baseUrl,
      SNAP_CLIENT_ID: sim.clientId,
      SNAP_PARTNER_ID: sim.clientId,
      SNAP_CHANNEL_ID: '95221',
      SNAP_SOURCE_BANK_CODE: '014',
      SNAP_SOURCE_ACCOUNT_NO: sim.sourceAccountNo,
    });
    expect(readFileSync(sim.files.clientSecretFile, 'utf8')).toBe(sim.clientSecret);
    expect(readFileSync(sim.files.privateKeyFile, 'utf8')).toBe(sim.clientPrivateKeyPem);
    expect(readFileSync(sim.files.providerPublicKeyFile, 'utf8')).toBe(sim.providerPublicKeyPem);
  });

  let seq = 0;
  const transfer = (accountNo: string, amount = '10000.00', ref = `PO-${Date.now()}-${++seq}`) => ({
    partnerReferenceNo: ref,
    amount: { value: amount, currency: 'IDR' },
    beneficiaryAccountName: 'BUDI SANTOSO',
    beneficiaryAccountNo: accountNo,
    beneficiaryBankCode: '002',
    sourceAccountNo: sim.sourceAccountNo,
    transactionDate: jakartaNow(),
    additionalInfo: {},
  });
  const status = (partnerReferenceNo: string) =>
    call(caller, accessToken, '/v1.0/transfer/status', {
      originalPartnerReferenceNo: partnerReferenceNo,
      serviceCode: '18',
    });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('refuses a token request with a bad signature or a stale timestamp', async () => {
    expect(await token(caller, { signature: 'AAAA' })).toMatchObject({
      status: 401,
      body: { responseCode: '4017300' },
    });
    const stale = jakartaNow(new Date(Date.now() - 10 * 60_000));
    expect(await token(caller, { timestamp: stale })).toMatchObject({ status: 401, body: { responseCode: '4017300' } });
  });

  it.each([
    ['a missing X-EXTERNAL-ID', { drop: 'x-external-id' }, 400, '4001802'],
    ['a missing CHANNEL-ID', { drop: 'channel-id' }, 400, '4001802'],
    ['a bad signature', { signature: 'AAAA' }, 401, '4011800'],
    ['a stale timestamp', { timestamp: jakartaNow(new Date(Date.now() - 6 * 60_000)) }, 401, '4011800'],
    ['a malformed timestamp', { timestamp: '2024-08-01 10:00:00' }, 400, '4001801'],
    ['an unknown token', { token: 'not-a-token' }, 401, '4011801'],
    ['a non-numeric X-EXTERNAL-ID', { externalId: 'abc' }, 400, '4001801'],
  ])('refuses %s with its code, HTTP status = code prefix', async (_what, tamper, http, code) => {
    const res = await call(caller, accessToken, '/v1.0/transfer-interbank', transfer('1234567890'), tamper);
    expect(res.status).toBe(http);
    expect(res.body.responseCode).toBe(code);
  });

  it('refuses an X-EXTERNAL-ID used before today (409xx00) without executing', async () => {
    const first = await call(caller, accessToken, '/v1.0/account-inquiry-external', {
      beneficiaryBankCode: '002',
      beneficiaryAccountNo: '1234567890',
    });
    expect(first.body.responseCode).toBe('2001600');
    const t = transfer('1234567890');
    const again = await call(caller, accessToken, '/v1.0/transfer-interbank', t, { externalId: first.externalId });
    expect(again).toMatchObject({ status: 409, body: { responseCode: '4091800' } });
    expect((await sim.executions()).some((e) => e.partnerReferenceNo === t.partnerReferenceNo)).toBe(false);
  });

  it('answers account inquiries for the magic accounts', async () => {
    const inquire = (accountNo: string) =>
      call(caller, accessToken, '/v1.0/account-inquiry-external', {
        beneficiaryBankCode: '002',
        beneficiaryAccountNo: accountNo,
      });
    expect((await inquire('0000000404')).body.responseCode).toBe('4041611');
    expect((await inquire('0800000403')).body.responseCode).toBe('4031618');
    const found = await inquire('1234567890');
    expect(found.body).toMatchObject({ responseCode: '2001600', beneficiaryAccountNo: '1234567890' });
    expect((await inquire('1234567890')).body.beneficiaryAccountName).toBe(found.body.beneficiaryAccountName);
  });

  it('executes a normal transfer once; the same reference again is 409xx01, with other parameters 404xx18', async () => {
    const t = transfer('1234567890');
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', t)).body.responseCode).toBe('2001800');
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', t)).body.responseCode).toBe('4091801');
    const changed = { ...t, amount: { value: '10001.00', currency: 'IDR' } };
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', changed)).body.responseCode).toBe('4041818');
    expect((await status(t.partnerReferenceNo)).body).toMatchObject({ latestTransactionStatus: '00' });
    expect((await sim.executions()).filter((e) => e.partnerReferenceNo === t.partnerReferenceNo)).toEqual([
      expect.objectContaining({ executions: 1, state: 'success' }),
    ]);
  });

  it.each([
    ['0000000404', 404, '4041811'],
    ['0000000403', 403, '4031818'],
    ['0000000422', 403, '4031805'],
    ['0800000414', 403, '4031814'],
  ])('%s is refused (%s %s) and not executed', async (accountNo, http, code) => {
    const t = transfer(accountNo);
    const res = await call(caller, accessToken, '/v1.0/transfer-interbank', t);
    expect(res.status).toBe(http);
    expect(res.body.responseCode).toBe(code);
    expect((await status(t.partnerReferenceNo)).body.responseCode).toBe('4043601');
  });

  it('0000000408: executed, and the answer never arrives', async () => {
    const t = transfer('0000000408');
    await expect(call(caller, accessToken, '/v1.0/transfer-interbank', t)).rejects.toThrow();
    expect((await status(t.partnerReferenceNo)).body).toMatchObject({
      responseCode: '2003600',
      latestTransactionStatus: '00',
    });
  });

  it('0000000502 and 0000000504: executed, then a 5xx', async () => {
    const a = transfer('0000000502');
    expect(await call(caller, accessToken, '/v1.0/transfer-interbank', a)).toMatchObject({
      status: 500,
      body: { responseCode: '5001801' },
    });
    const b = transfer('0800000504');
    expect(await call(caller, accessToken, '/v1.0/transfer-interbank', b)).toMatchObject({
      status: 504,
      body: { responseCode: '5041800' },
    });
    expect((await status(a.partnerReferenceNo)).body.latestTransactionStatus).toBe('00');
    expect((await status(b.partnerReferenceNo)).body.latestTransactionStatus).toBe('00');
  });

  it('0000000202 and 0000000500: in progress, then success or failure (the money comes back)', async () => {
    const ok = transfer('0000000202');
    const bad = transfer('0000000500');
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', ok)).status).toBe(202);
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', bad)).body.responseCode).toBe('2021800');
    expect((await status(ok.partnerReferenceNo)).body.latestTransactionStatus).toBe('03');
    await sleep(400);
    expect((await status(ok.partnerReferenceNo)).body.latestTransactionStatus).toBe('00');
    expect((await status(bad.partnerReferenceNo)).body.latestTransactionStatus).toBe('06');
    const record = await sim.executions();
    expect(record.find((e) => e.partnerReferenceNo === bad.partnerReferenceNo)).toMatchObject({
      executions: 1,
      state: 'failed',
      reversals: 1,
    });
  });

  it('0000000429: rate limited twice, then executed; 0000000407: the status lags twice', async () => {
    const t = transfer('0000000429');
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', t)).body.responseCode).toBe('4291800');
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', t)).body.responseCode).toBe('4291800');
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', t)).body.responseCode).toBe('2001800');
    const lag = transfer('0000000407');
    expect((await call(caller, accessToken, '/v1.0/transfer-interbank', lag)).body.responseCode).toBe('2001800');
    expect((await status(lag.partnerReferenceNo)).body.responseCode).toBe('4043601');
    expect((await status(lag.partnerReferenceNo)).body.responseCode).toBe('4043601');
    expect((await status(lag.partnerReferenceNo)).body.latestTransactionStatus).toBe('00');
  });

  it('refuses a transfer the source account cannot cover (403xx14), and reports the balance (11)', async () => {
    await sim.control('source-account', { balance: '500000' });
    const res = await call(caller, accessToken, '/v1.0/transfer-interbank', transfer('1234567890', '5000.01'));
    expect(res.body.responseCode).toBe('4031814');
    const balance = await call(caller, accessToken, '/v1.0/balance-inquiry', { accountNo: sim.sourceAccountNo });
    expect(balance.body).toMatchObject({
      responseCode: '2001100',
      accountInfos: [{ availableBalance: { value: '5000.00' } }],
    });
    await sim.control('source-account', { balance: '1000000000000000' });
  });

  it('keeps tokens and transfers across a restart', async () => {
    const t = transfer('1234567890');
    await call(caller, accessToken, '/v1.0/transfer-interbank', t);
    await sim.restart();
    expect((await status(t.partnerReferenceNo)).body).toMatchObject({
      responseCode: '2003600',
      latestTransactionStatus: '00',
    });
  });

  describe('QRIS acquirer', () => {
    const generate = (ref: string, value = '25000.00') =>
      call(caller, accessToken, '/v1.0/qr/qr-mpm-generate', {
        partnerReferenceNo: ref,
        amount: { value, currency: 'IDR' },
        merchantId: 'SIM-MERCHANT-1',
        validityPeriod: jakartaNow(new Date(Date.now() + 600_000)),
      });
    const query = (ref: string) =>
      call(caller, accessToken, '/v1.0/qr/qr-mpm-query', { originalPartnerReferenceNo: ref, serviceCode: '47' });

    it('generates a code, deduped on the reference, and answers its query', async () => {
      const g = await generate('INV-1');
      expect(g.body).toMatchObject({ responseCode: '2004700', partnerReferenceNo: 'INV-1' });
      expect(String(g.body.qrContent)).toMatch(/^000201/);
      expect((await generate('INV-1')).body.referenceNo).toBe(g.body.referenceNo);
      expect((await generate('INV-1', '1.00')).body.responseCode).toBe('4044718');
      expect((await query('INV-1')).body).toMatchObject({ responseCode: '2005100', latestTransactionStatus: '03' });
    });

    it('notifies a payment signed with its key, and the query says paid', async () => {
      await generate('INV-2');
      const paid = await sim.control('qris/pay', { partnerReferenceNo: 'INV-2' });
      expect(paid.body).toMatchObject({
        state: 'paid',
        notification: { responseCode: '2005200', goodSignature: true },
      });
      const n = notifications.at(-1);
      expect(n?.valid).toBe(true);
      expect(JSON.parse(n?.body ?? '{}')).toMatchObject({
        originalPartnerReferenceNo: 'INV-2',
        latestTransactionStatus: '00',
        amount: { value: '25000.00', currency: 'IDR' },
      });
      expect((await query('INV-2')).body).toMatchObject({
        latestTransactionStatus: '00',
        paidTime: expect.any(String),
      });
      expect((await sim.control('qris/pay', { partnerReferenceNo: 'INV-2' })).status).toBe(409);
    });

    it('duplicate, bad-signature and never modes', async () => {
      await generate('INV-3');
      await generate('INV-4');
      await generate('INV-5');
      const before = notifications.length;
      await sim.control('qris/pay', { partnerReferenceNo: 'INV-3', mode: 'duplicate' });
      notifyAnswer = { status: 401, body: { responseCode: '4015200', responseMessage: 'Unauthorized' } };
      await sim.control('qris/pay', { partnerReferenceNo: 'INV-4', mode: 'bad-signature' });
      notifyAnswer = { status: 200, body: { responseCode: '2005200', responseMessage: 'Successful' } };
      await sim.control('qris/pay', { partnerReferenceNo: 'INV-5', mode: 'never' });
      const sent = notifications.slice(before).map((n) => [JSON.parse(n.body).originalPartnerReferenceNo, n.valid]);
      expect(sent).toEqual([
        ['INV-3', true],
        ['INV-3', true],
        ['INV-4', false],
      ]);
      expect((await query('INV-5')).body.latestTransactionStatus).toBe('00');
    });

    it('refunds in parts, never more than was paid', async () => {
      await generate('INV-6', '10000.00');
      await sim.control('qris/pay', { partnerReferenceNo: 'INV-6' });
      const refund = (no: string, value: string) =>
        call(caller, accessToken, '/v1.0/qr/qr-mpm-refund', {
          originalPartnerReferenceNo: 'INV-6',
          partnerRefundNo: no,
          refundAmount: { value, currency: 'IDR' },
          reason: 'test',
        });
      expect((await refund('RF-1', '6000.00')).body).toMatchObject({
        responseCode: '2007800',
        refundNo: expect.any(String),
      });
      expect((await refund('RF-1', '6000.00')).body.responseCode).toBe('2007800');
      expect((await refund('RF-2', '4000.01')).body.responseCode).toBe('4047813');
      expect((await refund('RF-2', '4000.00')).body.responseCode).toBe('2007800');
    });
  });
});
