import { sql } from '@pay/persistence';
import { LedgerEventType, type RecordPayinCommand } from '@pay/contracts';
import { payinRecordedPostings } from '@pay/domain';
import { type Decision, type HandlerContext, reject, RejectionReason } from './decision';

/**
 * A successful pay-in: its net (amount - fee) goes into pending (spec 2.3 rule 1). A pay-in of
 * the sandbox payer is sandbox money: its event carries the mark and its net is added to what
 * the merchant has received of it (decision 0047). The command must say what the row says.
 */
export async function recordPayin(ctx: HandlerContext, cmd: RecordPayinCommand): Promise<Decision> {
  const [payin] = await ctx.tx.query<{
    amount: bigint;
    fee: bigint;
    status: string;
    sandbox: boolean;
    ledger_event_id: bigint | null;
  }>(sql`
    SELECT amount, fee, status, sandbox, ledger_event_id FROM payins
     WHERE id = ${cmd.payinId}::uuid AND merchant_id = ${ctx.merchantId} FOR UPDATE`);
  if (!payin) return reject(RejectionReason.PayinNotFound, { payinId: cmd.payinId });
  const amount = BigInt(cmd.amount);
  const fee = BigInt(cmd.fee);
  const sandbox = cmd.sandbox === true;
  if (payin.status !== 'success' || payin.amount !== amount || payin.fee !== fee || payin.sandbox !== sandbox) {
    return reject(RejectionReason.PayinNotRecordable, {
      payinId: cmd.payinId,
      status: payin.status,
      amount: payin.amount.toString(),
      fee: payin.fee.toString(),
      sandbox: String(payin.sandbox),
    });
  }
  const net = amount - fee;
  return {
    kind: 'event',
    eventType: LedgerEventType.PayinRecorded,
    reference: cmd.payinId,
    availableDelta: 0n,
    pendingDelta: net,
    sandboxReceivedDelta: sandbox ? net : 0n,
    payload: {
      payinId: cmd.payinId,
      amount: cmd.amount,
      fee: cmd.fee,
      net: net.toString(),
      ...(sandbox ? { sandbox: true } : {}),
    },
    postings: payinRecordedPostings({ merchantId: ctx.merchantId, amount, fee, sandbox }),
    project: async (tx, eventId) => {
      await tx.execute(sql`UPDATE payins SET ledger_event_id = ${eventId} WHERE id = ${cmd.payinId}::uuid`);
    },
  };
}
