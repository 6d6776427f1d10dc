import { type PrismaClient } from '@pay/persistence';
import { type WebhookReceiver } from '@pay/testing';

type Disbursement = Awaited<ReturnType<PrismaClient['disbursement']['findMany']>>[number];

/**
 * The money invariants of a quiet stack after a chaos run, for the given merchants: each final
 * disbursement paid by the rail once, money conserved, available never negative, every final
 * status delivered to the merchant once. Returns one line per violation.
 */
export async function checkMoney(
  prisma: PrismaClient,
  receiver: WebhookReceiver,
  ids: number[],
  finals: Disbursement[],
): Promise<string[]> {
  const v: string[] = [];
  // 1. Every disbursement final, each paid by the rail exactly once.
  for (const d of finals) {
    const rail = await prisma.sandboxRailTransfer.count({ where: { idempotencyKey: d.id } });
    if (rail !== 1) v.push(`disbursement ${d.id} reached the rail ${rail} times`);
  }
  for (const id of ids) {
    // 2. Money is conserved: settled pay-in nets = available + successful payouts (amount + fee); pending = unsettled nets.
    const settled = await prisma.payin.findMany({
      where: { merchantId: id, status: 'success', settlementId: { not: null } },
      select: { amount: true, fee: true },
    });
    const unsettled = await prisma.payin.findMany({
      where: { merchantId: id, status: 'success', settlementId: null },
      select: { amount: true, fee: true },
    });
    const paidOut = await prisma.disbursement.findMany({
      where: { merchantId: id, status: 'success' },
      select: { amount: true, fee: true },
    });
    const balance = await prisma.balance.findUniqueOrThrow({ where: { merchantId: id } });
    const settledNet = settled.reduce((s, p) => s + p.amount - p.fee, 0n);
    const out = paidOut.reduce((s, d) => s + d.amount + d.fee, 0n);
    if (settledNet !== balance.available + out)
      v.push(`merchant ${id}: settled nets ${settledNet} != available ${balance.available} + payouts ${out}`);
    const unsettledNet = unsettled.reduce((s, p) => s + p.amount - p.fee, 0n);
    if (unsettledNet !== balance.pending)
      v.push(`merchant ${id}: pending ${balance.pending} != unsettled nets ${unsettledNet}`);
    // 3. available never negative along the event sequence.
    const events = await prisma.ledgerEvent.findMany({
      where: { merchantId: id },
      orderBy: { seq: 'asc' },
      select: { seq: true, availableDelta: true },
    });
    let running = 0n;
    for (const e of events) {
      running += e.availableDelta;
      if (running < 0n) v.push(`merchant ${id}: available ${running} < 0 at seq ${e.seq}`);
    }
  }
  // 4. Every final status reached the receiver, one event id per disbursement.
  const received = new Map<string, Set<string>>();
  for (const r of receiver.requests) {
    const body = JSON.parse(r.rawBody) as { id: string; data: { platformTrxId: string } };
    const set = received.get(body.data.platformTrxId) ?? new Set<string>();
    set.add(body.id);
    received.set(body.data.platformTrxId, set);
  }
  for (const d of finals) {
    const got = received.get(d.platformTrxId);
    if (!got)
      v.push(
        `disbursement ${d.id} (${d.status}, final ${d.updatedAt.toISOString()}): no webhook received; ${await deliveryState(prisma, d.id)}`,
      );
    else if (got.size !== 1 || !got.has(`disbursement.${d.id}.${d.status}`))
      v.push(`disbursement ${d.id}: webhook event ids ${[...got].join(', ')}`);
  }
  return v;
}

/** Where a missing webhook got to: its delivery row (none: the payout event never reached the workers). */
async function deliveryState(prisma: PrismaClient, disbursementId: string): Promise<string> {
  const rows = await prisma.webhookDelivery.findMany({ where: { disbursementId } });
  if (!rows.length) return 'no delivery row';
  return rows
    .map(
      (w) =>
        `delivery ${w.eventId} ${w.status}, ${w.attemptCount} attempts, last ${w.lastStatusCode ?? w.lastError ?? 'none'}, next ${w.nextAttemptAt?.toISOString() ?? '-'}`,
    )
    .join('; ');
}
