import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SnapSimulator } from '@pay/devstack';
import { type QrNotification, readSnapCredentials, type SnapRailConfig, SnapQrisAcquirer } from '@pay/bank-rail';

/**
 * The QRIS acquirer over SNAP (libs/bank-rail) against the simulator playing the acquirer (its own
 * process): what QRIS_ACQUIRER=snap stands on (the gateway wired to it: api/internal/snap-acquirer.int-spec.ts).
 */
describe('SnapQrisAcquirer (the simulator as the acquirer)', () => {
  let sim: SnapSimulator;
  let acquirer: SnapQrisAcquirer;
  let receiver: Server;
  const readings: ({ ok: true; notification: QrNotification } | { ok: false; message: string })[] = [];

  beforeAll(async () => {
    // Our notification endpoint in a few lines: it reads each notification as the gateway will.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const r = acquirer.readNotification({
          path: req.url ?? '',
          headers,
          rawBody: Buffer.concat(chunks),
          now: new Date(),
          windowMs: 300_000,
        });
        readings.push(r);
        const code = r.ok ? '2005200' : `${r.http}52${r.caseCode}`;
        res.writeHead(r.ok ? 200 : r.http, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ responseCode: code, responseMessage: r.ok ? 'Successful' : r.message }));
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    sim = await SnapSimulator.start({
      databaseUrl: process.env.DATABASE_URL as string,
      notifyUrl: `http://127.0.0.1:${port}/snap/v1.0/qr/qr-mpm-notify`,
    });
    const env = sim.env();
    const config: SnapRailConfig = {
      baseUrl: sim.baseUrl,
      clientId: sim.clientId,
      partnerId: sim.clientId,
      signatureMode: 'symmetric',
      channelId: sim.channelId,
      sourceAccountNo: sim.sourceAccountNo,
      sourceBankCode: sim.sourceBankCode,
      externalIdLength: 32,
      connectTimeoutMs: 1_000,
      timeoutMs: 2_000,
      statusPollMs: 100,
      notFoundWindowMs: 1_000,
      files: {
        clientSecret: env.SNAP_CLIENT_SECRET_FILE,
        privateKey: env.SNAP_PRIVATE_KEY_FILE,
        providerPublicKey: env.SNAP_PROVIDER_PUBLIC_KEY_FILE,
      },
    };
    acquirer = new SnapQrisAcquirer(config, readSnapCredentials(config.files), 'SIM-MERCHANT-1');
  });

  afterAll(async () => {
    acquirer?.close();
    await sim?.stop();
    receiver?.close();
  });

  const code = async (amount = 2_500_000n) => {
    const platformTrxId = `QR${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const generated = await acquirer.generate({
      platformTrxId,
      amount,
      expiresAt: new Date(Date.now() + 600_000),
      merchantName: 'TOKO BUDI',
    });
    return { platformTrxId, generated };
  };

  it('generates a code at the acquirer (47): its qrContent is an EMVCo payload with our reference', async () => {
    const { platformTrxId, generated } = await code();
    expect(generated).toMatchObject({ kind: 'created', referenceNo: expect.stringMatching(/^QR/) });
    if (generated.kind !== 'created') return;
    expect(generated.qrContent).toMatch(/^000201/);
    expect(generated.qrContent).toContain(platformTrxId);
    expect(generated.qrContent).toContain('540525000');
    // A retried generate is the same code.
    const again = await acquirer.generate({
      platformTrxId,
      amount: 2_500_000n,
      expiresAt: new Date(Date.now() + 600_000),
      merchantName: 'TOKO BUDI',
    });
    expect(again).toEqual(generated);
    expect(await acquirer.query(platformTrxId)).toEqual({ state: 'pending', referenceNo: generated.referenceNo });
  });

  it('a payment is notified (52), verified, and the query (51) says paid with the same facts', async () => {
    const { platformTrxId } = await code();
    const before = readings.length;
    const paid = await sim.control('qris/pay', { partnerReferenceNo: platformTrxId, issuer: 'DANA' });
    expect(paid.body).toMatchObject({ notification: { responseCode: '2005200' } });
    const reading = readings[before];
    expect(reading).toEqual({
      ok: true,
      notification: expect.objectContaining({ platformTrxId, status: 'success', amount: 2_500_000n, issuer: 'DANA' }),
    });
    const state = await acquirer.query(platformTrxId);
    expect(state).toMatchObject({
      state: 'paid',
      amount: 2_500_000n,
      issuer: 'DANA',
      rrn: expect.stringMatching(/^\d{12}$/),
    });
    if (reading.ok && state.state === 'paid') {
      expect(state.referenceNo).toBe(reading.notification.referenceNo);
      expect(state.paidAt?.getTime()).toBe(reading.notification.paidAt?.getTime());
    }
  });

  it('a badly signed notification is refused; the payment is still found by query', async () => {
    const { platformTrxId } = await code();
    const before = readings.length;
    const paid = await sim.control('qris/pay', { partnerReferenceNo: platformTrxId, mode: 'bad-signature' });
    expect(paid.body).toMatchObject({ notification: { responseCode: '4015200', goodSignature: false } });
    expect(readings[before]).toEqual({ ok: false, http: 401, caseCode: '00', message: 'Unauthorized. Signature' });
    expect(await acquirer.query(platformTrxId)).toMatchObject({ state: 'paid' });
  });

  it('a notification that never comes: the query finds the payment', async () => {
    const { platformTrxId } = await code();
    const before = readings.length;
    await sim.control('qris/pay', { partnerReferenceNo: platformTrxId, mode: 'never' });
    expect(readings.length).toBe(before);
    expect(await acquirer.query(platformTrxId)).toMatchObject({ state: 'paid', amount: 2_500_000n });
  });

  it('refunds (78) in parts, never more than was paid, idempotent by refund id', async () => {
    const { platformTrxId } = await code(1_000_000n);
    await sim.control('qris/pay', { partnerReferenceNo: platformTrxId });
    const first = await acquirer.refund({ platformTrxId, refundId: 'RF-A', amount: 600_000n, reason: 'returned' });
    expect(first).toMatchObject({ kind: 'refunded', refundNo: expect.stringMatching(/^RFD/) });
    expect(await acquirer.refund({ platformTrxId, refundId: 'RF-A', amount: 600_000n, reason: 'returned' })).toEqual(
      first,
    );
    expect(await acquirer.refund({ platformTrxId, refundId: 'RF-B', amount: 400_001n, reason: 'too much' })).toEqual({
      kind: 'refused',
      code: '4047813',
      message: 'Invalid Amount',
    });
  });

  it('a stale, unsigned or headerless notification is refused', () => {
    const stale = acquirer.readNotification({
      path: '/snap/v1.0/qr/qr-mpm-notify',
      headers: { 'x-timestamp': '2024-08-01T10:20:05+07:00', 'x-signature': 'AAAA' },
      rawBody: Buffer.from('{}'),
      now: new Date(),
      windowMs: 300_000,
    });
    expect(stale).toMatchObject({ ok: false, http: 401 });
    expect(
      acquirer.readNotification({ path: '/x', headers: {}, rawBody: Buffer.alloc(0), now: new Date(), windowMs: 1 }),
    ).toMatchObject({ ok: false, http: 400, caseCode: '02' });
  });

  it('an unknown code is not found by query', async () => {
    expect(await acquirer.query('QRNOSUCHCODE')).toEqual({ state: 'not_found' });
  });
});
