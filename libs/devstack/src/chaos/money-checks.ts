import { type PrismaClient } from '@pay/persistence';
import { type WebhookReceiver } from '@pay/testing';

type Disbursement = Awaited<ReturnType<PrismaClient['disbursement']['findMany']>>[number];

/** What the bank itself recorded of one disbursement: executions (debits of its source account) and reversals. */
export type BankRecord = (disbursementId: string) => Promise<{ executions: number; reversals: number }>;

/** The SNAP provider simulator's own execution record (GET /simulator/v1/executions). */
export async function snapBankRecord(snap: {
  executions(): Promise<{ partnerReferenceNo: string; executions: number; reversals: number }[]>;
}): Promise<BankRecord> {
  const all = await snap.executions();
  return async (id) => {
    const mine = all.filter((e) => e.partnerReferenceNo === id);
    return {
      executions: mine.reduce((n, e) => n + e.executions, 0),
      reversals: mine.reduce((n, e) => n + e.reversals, 0),
    };
  };
}

/** The in-process sandbox rail's record: one row per transfer it accepted. */
export function sandboxBankRecord(prisma: PrismaClient): BankRecord {
  return async (id) => ({
    executions: await prisma.sandboxRailTransfer.count({ where: { idempotencyKey: id } }),
    reversals: 0,
  });
}

/**
 * The money invariants of a quiet stack after a chaos run, for the given merchants: each
 * disbursement executed by the bank exactly once if it succeeded (at most once, and then reversed,
 * if it failed), money conserved, available never negative, every final status delivered to the
 * merchant once. Returns one line per violation.
 */
export async function checkMoney(
  prisma: PrismaClient,
  receiver: WebhookReceiver,
  ids: number[],
  finals: Disbursement[],
  bank: BankRecord,
): Promise<string[]> {
  const v: string[] = [];
  // 1. Every disbursement final; by the bank's own record, a success executed exactly once, a failure
  // never executed (refused) or executed once and reversed.
  for (const d of finals) {
    const { executions, reversals } = await bank(d.id);
    if (d.status === 'success' && executions !== 1)
      v.push(`disbursement ${d.id} succeeded and the bank executed it ${executions} times`);
    if (d.status === 'failed' && executions > reversals)
      v.push(`disbursement ${d.id} failed and the bank executed it ${executions} times, reversed ${reversals}`);
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
