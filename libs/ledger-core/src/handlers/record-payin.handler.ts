import { sql } from '@pay/persistence';
import { LedgerEventType, type RecordPayinCommand } from '@pay/contracts';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/** A successful pay-in: its net (amount - fee) goes into pending (spec 2.3 rule 1). */
export async function recordPayin(ctx: HandlerContext, cmd: RecordPayinCommand): Promise<Decision> {
  const [payin] = await ctx.tx.query<{
    amount: bigint;
    fee: bigint;
    status: string;
    ledger_event_id: bigint | null;
  }>(sql`
    SELECT amount, fee, status, ledger_event_id FROM payins
     WHERE id = ${cmd.payinId}::uuid AND merchant_id = ${ctx.merchantId} FOR UPDATE`);
  if (!payin) return reject(RejectionReason.PayinNotFound, { payinId: cmd.payinId });
  const amount = BigInt(cmd.amount);
  const fee = BigInt(cmd.fee);
  if (payin.status !== 'success' || payin.amount !== amount || payin.fee !== fee) {
    return reject(RejectionReason.PayinNotRecordable, {
      payinId: cmd.payinId,
      status: payin.status,
      amount: payin.amount.toString(),
      fee: payin.fee.toString(),
    });
  }
  const net = amount - fee;
  return {
    kind: 'event',
    eventType: LedgerEventType.PayinRecorded,
    reference: cmd.payinId,
    availableDelta: 0n,
    pendingDelta: net,
    payload: { payinId: cmd.payinId, amount: cmd.amount, fee: cmd.fee, net: net.toString() },
    project: async (tx, eventId) => {
      await tx.execute(sql`UPDATE payins SET ledger_event_id = ${eventId} WHERE id = ${cmd.payinId}::uuid`);
    },
  };
}
