import { randomUUID } from 'node:crypto';
import { createQrisAcquirer, type SnapQrisAcquirer } from '@pay/bank-rail';
import { parseLedgerCommand } from '@pay/contracts';
import { SnapSimulator } from '@pay/devstack';
import type { Minor } from '@pay/domain';
import {
  createPgPool,
  createPrismaClient,
  PayinRefundRepository,
  PayinRepository,
  type PrismaClient,
  verifyLedger,
} from '@pay/persistence';
import { createLogger, loadConfig } from '@pay/platform';
import { createMerchant, ledgerFor } from '@pay/testing';
import type { Pool } from 'pg';
import { workersConfigSchema } from '../workers.config';
import { PayinRefundSender } from './payin-refund.sender';

/**
 * The workers' refund sender (issue 44) against the SNAP provider simulator as its own process
 * (QRIS MPM refund, 78): a debited refund succeeds at the acquirer, one it refuses fails and its
 * money comes back through the ledger, one it does not answer stays pending and is asked again
 * with the same partnerRefundNo (refunded once); without an acquirer the refund is simulated.
 * Each final status writes its signed payin.refunded callback.
 */
describe('pay-in refunds sent to the acquirer (workers, simulator process)', () => {
  let sim: SnapSimulator;
  let acquirer: SnapQrisAcquirer;
  let deaf: SnapQrisAcquirer;
  let prisma: PrismaClient;
  let pool: Pool;
  let payins: PayinRepository;
  let refunds: PayinRefundRepository;
  const logger = createLogger('test', 'fatal');
  let callbacksWoken = 0;

  beforeAll(async () => {
    sim = await SnapSimulator.start({
      databaseUrl: process.env.DATABASE_URL as string,
      notifyUrl: 'http://127.0.0.1:9/snap/v1.0/qr/qr-mpm-notify',
    });
    const env = { DATABASE_URL: process.env.DATABASE_URL, ...sim.env(), ...sim.acquirerEnv() };
    const timeouts = { SNAP_TIMEOUT_MS: '1500', SNAP_CONNECT_TIMEOUT_MS: '500' };
    const made = createQrisAcquirer(loadConfig(workersConfigSchema, { ...env, ...timeouts }).payins.acquirer);
    // The same acquirer at an address where nothing answers.
    const away = createQrisAcquirer(
      loadConfig(workersConfigSchema, { ...env, ...timeouts, SNAP_BASE_URL: 'http://127.0.0.1:9' }).payins.acquirer,
    );
    if (!made || !away) throw new Error('QRIS_ACQUIRER=snap did not make an acquirer');
    acquirer = made;
    deaf = away;
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    payins = new PayinRepository(prisma);
    refunds = new PayinRefundRepository(pool);
  });
  afterAll(async () => {
    acquirer?.close();
    deaf?.close();
    await sim?.stop();
    await prisma?.$disconnect();
    await pool?.end();
  });

  const ours: number[] = [];
  const senderWith = (a: SnapQrisAcquirer | null) =>
    new PayinRefundSender(refunds, a, () => void callbacksWoken++, logger, 60_000, ours);

  /** A code generated at the acquirer and paid there (its notification applied), recorded by the ledger. */
  async function paidPayin(merchantId: number, opts: { atAcquirer?: boolean } = {}) {
    ours.push(merchantId);
    const platformTrxId = `QR${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const payin = await payins.create({
      merchantId,
      merchantTrxId: `RFD-${randomUUID().slice(0, 8)}`,
      platformTrxId,
      amount: 5_000_000n as Minor,
      fee: 35_000n as Minor,
      feePctMilli: 700,
      feeFixed: 0n as Minor,
      nmid: 'ID1234567890123',
      qrisPayload: null,
      expiresAt: new Date(Date.now() + 600_000),
      notifyUrl: 'https://merchant.example/refunds',
    });
    let reference = `NOT-AT-ACQUIRER-${randomUUID()}`;
    if (opts.atAcquirer !== false) {
      const generated = await acquirer.generate({
        platformTrxId,
        amount: payin.amount,
        expiresAt: payin.expiresAt as Date,
        merchantName: 'TOKO REFUND',
      });
      expect(generated.kind).toBe('created');
      const paid = await sim.control('qris/pay', { partnerReferenceNo: platformTrxId, mode: 'never' });
      reference = paid.body.referenceNo as string;
    }
    const now = new Date();
    const applied = await payins.applyNotice(
      {
        acquirerReference: reference,
        platformTrxId,
        amount: payin.amount,
        status: 'success',
        rrn: '123456789012',
        issuer: 'DANA',
        paidAt: now,
        failureReason: null,
        sandbox: true,
      },
      '{}',
      now,
      300_000,
    );
    expect(applied.outcome).toBe('accepted');
    const record = await prisma.outbox.findFirstOrThrow({
      where: { topic: 'ledger.commands.v1', payload: { path: ['payinId'], equals: payin.id } },
    });
    expect(await ledgerFor(prisma).apply(parseLedgerCommand(record.payload))).toMatchObject({ outcome: 'applied' });
    return payin;
  }

  /** A refund as the gateway records it, debited by the ledger. */
  async function debitedRefund(merchantId: number, merchantTrxId: string, amount: bigint) {
    const id = randomUUID();
    const verdict = await refunds.recordRefund({
      id,
      merchantId,
      merchantTrxId,
      refundId: `R-${id.slice(0, 8)}`,
      amount,
      reason: 'returned',
      logId: null,
      windowSeconds: 86_400,
    });
    expect(verdict.kind).toBe('created');
    await applyOutbox(`payin.refund:${id}`);
    expect((await prisma.payinRefund.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    return id;
  }
  async function applyOutbox(messageId: string) {
    const row = await prisma.outbox.findFirstOrThrow({
      where: { headers: { path: ['message-id'], equals: messageId } },
    });
    return ledgerFor(prisma).apply(parseLedgerCommand(row.payload));
  }
  const balance = async (merchantId: number) => {
    const b = await prisma.balance.findUniqueOrThrow({ where: { merchantId } });
    return { available: b.available, pending: b.pending };
  };
  const callbackOf = async (id: string, status: string) => {
    const d = await prisma.webhookDelivery.findUniqueOrThrow({ where: { eventId: `payin.refund.${id}.${status}` } });
    return { ...d, body: JSON.parse(d.body) };
  };

  it('refunded at the acquirer: success with its refundNo and refundTime, and the payin.refunded callback', async () => {
    const { merchant } = await createMerchant(prisma);
    const payin = await paidPayin(merchant.id);
    const id = await debitedRefund(merchant.id, payin.merchantTrxId, 2_000_000n);
    const before = callbacksWoken;
    expect(await senderWith(acquirer).send()).toMatchObject({ finished: expect.any(Number) });
    const row = await prisma.payinRefund.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      status: 'success',
      refundNo: expect.stringMatching(/^RFD/),
      completedAt: expect.any(Date),
    });
    expect(row.refundTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+07:00$/);
    const callback = await callbackOf(id, 'success');
    expect(callback).toMatchObject({
      eventType: 'payin.refunded',
      url: 'https://merchant.example/refunds',
      payinId: payin.id,
      status: 'pending',
    });
    expect(callback.body).toMatchObject({
      id: `payin.refund.${id}.success`,
      type: 'payin.refunded',
      data: {
        idMerchant: merchant.id,
        refundId: row.refundId,
        merchantTrxId: payin.merchantTrxId,
        amount: 20000,
        status: 'success',
        refundNo: row.refundNo,
      },
    });
    expect(callbacksWoken).toBeGreaterThan(before);
    expect(await balance(merchant.id)).toEqual({ available: 0n, pending: 4_965_000n - 2_000_000n });
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
  });

  it('refused by the acquirer: failed, the money back through the ledger once, the callback says failed', async () => {
    const { merchant } = await createMerchant(prisma);
    // A payment the acquirer does not know: it refuses the refund (404 Transaction Not Found).
    const payin = await paidPayin(merchant.id, { atAcquirer: false });
    const id = await debitedRefund(merchant.id, payin.merchantTrxId, 1_000_000n);
    expect(await balance(merchant.id)).toEqual({ available: 0n, pending: 3_965_000n });
    await senderWith(acquirer).send();
    const row = await prisma.payinRefund.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^404\d{4}/) });
    expect(await applyOutbox(`payin.refund_return:${id}`)).toMatchObject({ outcome: 'applied' });
    expect(await balance(merchant.id)).toEqual({ available: 0n, pending: 4_965_000n });
    expect((await callbackOf(id, 'failed')).body.data).toMatchObject({
      status: 'failed',
      failureReason: row.failureReason,
    });
    // Sent again (another worker, a restart): nothing more.
    expect(await senderWith(acquirer).send()).toMatchObject({ finished: 0 });
    expect(
      await prisma.outbox.count({ where: { headers: { path: ['message-id'], equals: `payin.refund_return:${id}` } } }),
    ).toBe(1);
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
  });

  it('not answered: stays pending, asked again later with the same partnerRefundNo, refunded once', async () => {
    const { merchant } = await createMerchant(prisma);
    const payin = await paidPayin(merchant.id);
    const id = await debitedRefund(merchant.id, payin.merchantTrxId, 5_000_000n - 35_000n);
    const round = await senderWith(deaf).send();
    expect(round.unanswered).toBeGreaterThanOrEqual(1);
    const held = await prisma.payinRefund.findUniqueOrThrow({ where: { id } });
    expect(held).toMatchObject({ status: 'pending', attemptCount: 1, lastError: expect.any(String) });
    expect(held.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: not taken.
    await senderWith(acquirer).send();
    expect((await prisma.payinRefund.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    // Due: the acquirer answers now; asked twice more (the same partnerRefundNo), it refunds once.
    await prisma.payinRefund.update({ where: { id }, data: { nextAttemptAt: new Date() } });
    await senderWith(acquirer).send();
    const done = await prisma.payinRefund.findUniqueOrThrow({ where: { id } });
    expect(done).toMatchObject({ status: 'success', attemptCount: 2 });
    const again = await acquirer.refund({
      platformTrxId: payin.platformTrxId,
      refundId: id,
      amount: done.amount,
      reason: '',
    });
    expect(again).toEqual({ kind: 'refunded', refundNo: done.refundNo, refundTime: done.refundTime });
  });

  it('without an acquirer (QRIS_ACQUIRER=self) the refund is simulated: success at once', async () => {
    const { merchant } = await createMerchant(prisma);
    const payin = await paidPayin(merchant.id, { atAcquirer: false });
    const id = await debitedRefund(merchant.id, payin.merchantTrxId, 500_000n);
    await senderWith(null).send();
    expect(await prisma.payinRefund.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'success',
      refundNo: `SBX-RFD-${id.slice(0, 8).toUpperCase()}`,
    });
    expect((await callbackOf(id, 'success')).body.data.status).toBe('success');
  });
});
