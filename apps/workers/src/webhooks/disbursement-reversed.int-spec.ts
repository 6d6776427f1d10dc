import { join } from 'node:path';
import { MerchantAdmin, PayoutReversals } from '@pay/backoffice';
import { createPgPool, createPrismaClient, type PrismaClient, WebhookDeliveryRepository } from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { createDisbursement, createMerchant, fundMerchant, repoRoot, WebhookReceiver } from '@pay/testing';
import type { Pool } from 'pg';
import { WebhookDeliveryService } from './webhook-delivery.service';

// The merchant API guide's verification snippet, exactly as published.
const { verifyCallback } = require(join(repoRoot(), 'docs', 'snippets', 'verify-callback.js')) as {
  verifyCallback: (rawBody: string, header: string, secret: string, toleranceSec?: number) => boolean;
};

/**
 * A reversed payout's callback (`disbursement.reversed`, written by the back office's reversal)
 * goes out like every disbursement callback: one signed POST to the transfer's notifyUrl, the
 * body of the success's shape with status reversed, the fee given back, when and why.
 */
describe('the disbursement.reversed callback (real Postgres, real HTTP receiver)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await prisma.$disconnect();
    await pool.end();
  });

  it('is delivered once, signed with the merchant secret, with status reversed, fee 0, reversed_at and the reason', async () => {
    const { merchant } = await createMerchant(prisma, { name: 'Toko Balik' });
    await fundMerchant(prisma, merchant.id, [500_000_00n]);
    const { disbursement: d } = await createDisbursement(prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'success',
    });
    await prisma.disbursement.update({ where: { id: d.id }, data: { notifyUrl: receiver.url } });
    const { secret } = await new MerchantAdmin(prisma).webhookSecret(merchant.id);

    await new PayoutReversals(pool).reverse(d.id, 'Returned by the beneficiary bank: account closed');
    const delivery = await prisma.webhookDelivery.findUniqueOrThrow({
      where: { eventId: `disbursement.${d.id}.reversed` },
    });
    const service = new WebhookDeliveryService(new WebhookDeliveryRepository(pool), createLogger('test', 'fatal'), {
      timeoutMs: 2000,
      connectTimeoutMs: 2000,
      firstByteTimeoutMs: 2000,
      maxResponseBytes: 4096,
      allowLoopback: true,
      allowPrivateHosts: [],
      leaseGraceMs: 1000,
    });
    expect(await service.attempt(delivery.id)).toBe('delivered');

    const requests = receiver.requests.filter((r) => r.headers['x-callback-event-id'] === delivery.eventId);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.headers['x-callback-event-type']).toBe('disbursement.reversed');
    expect(verifyCallback(req.rawBody, req.headers['x-callback-signature'] as string, secret)).toBe(true);
    expect(JSON.parse(req.rawBody)).toEqual({
      id: `disbursement.${d.id}.reversed`,
      type: 'disbursement.reversed',
      createdAt: expect.any(String),
      // Its number in the merchant's event log (GET /api/v1/events)
      sequence: expect.any(Number),
      data: {
        idMerchant: merchant.id,
        merchantName: 'Toko Balik',
        merchantTrxId: d.merchantTrxId,
        platformTrxId: d.platformTrxId,
        accountNo: d.accountNo,
        accountName: d.accountName,
        bankCode: 'BCA',
        amount: 100000,
        fee: { amount: 0, percentage: 0, fixed: 2500 },
        totalAmount: 100000,
        status: 'reversed',
        success_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        reversed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        reversalReason: 'Returned by the beneficiary bank: account closed',
      },
    });
  });
});
