import { randomUUID } from 'node:crypto';
import { disbursementCallbackBody, disbursementCallbackEventId } from '@pay/domain';
import type { PrismaClient } from '@pay/persistence';

export interface CallbackRow {
  id: string;
  eventId: string;
  body: string;
}

/** `n` disbursement callbacks of `merchant`, with the bodies the payout service builds. */
export function callbackRows(merchant: { id: number; name: string }, n: number): CallbackRow[] {
  return Array.from({ length: n }, (_, i) => {
    const id = randomUUID();
    const body = disbursementCallbackBody({
      disbursementId: id,
      merchantId: merchant.id,
      merchantName: merchant.name,
      merchantTrxId: `INV-${i}`,
      platformTrxId: 'DSB1',
      bankCode: 'BCA',
      accountNo: '1234567890',
      accountName: 'BUDI SANTOSO',
      amount: 1_000_000n,
      feeFixed: 250_000n,
      status: 'success',
      successAt: new Date(),
      failureReason: null,
      occurredAt: new Date(),
    });
    return { id, eventId: disbursementCallbackEventId(id, 'success'), body };
  });
}

/**
 * Their delivery rows, due now, to `url`, as the payout service writes them with the final status:
 * 500 a statement, each statement's commit waking the workers' dispatcher.
 */
export async function insertCallbacks(
  prisma: PrismaClient,
  merchantId: number,
  url: string,
  rows: CallbackRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    await prisma.$executeRaw`
      INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, next_attempt_at, created_at, updated_at)
      SELECT gen_random_uuid(), e, 'disbursement.succeeded', ${merchantId}, d, ${url}, b, 'pending', now(), now(), now()
        FROM unnest(${batch.map((r) => r.eventId)}::text[], ${batch.map((r) => r.id)}::uuid[], ${batch.map((r) => r.body)}::text[]) AS t(e, d, b)`;
  }
}
