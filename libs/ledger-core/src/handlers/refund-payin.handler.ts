import { LedgerEventType, type RefundPayinCommand, type ReturnPayinRefundCommand } from '@pay/contracts';
import { payinRefundedPostings, payinRefundReturnedPostings } from '@pay/domain';
import { DISBURSEMENT_DECIDED_CHANNEL, sql, type SqlClient } from '@pay/persistence';
import { type Decision, type HandlerContext, type Rejection, reject, RejectionReason } from './decision';

interface RefundRow {
  payin_id: string;
  amount: bigint;
  status: string;
  from_pending: bigint;
  from_available: bigint;
  sandbox: boolean;
  payin_status: string;
  payin_recorded: boolean;
  settled: boolean;
  left_net: bigint;
}

/** The refund and its pay-in, locked (the pay-in row: its refunded_pending moves). */
async function refundRow(tx: SqlClient, merchantId: number, refundId: string): Promise<RefundRow | undefined> {
  const [row] = await tx.query<RefundRow>(sql`
    SELECT r.payin_id::text AS payin_id, r.amount, r.status, r.from_pending, r.from_available, p.sandbox,
           p.status AS payin_status, p.ledger_event_id IS NOT NULL AS payin_recorded, p.settlement_id IS NOT NULL AS settled,
           (p.amount - p.fee - p.refunded_pending) AS left_net
      FROM payin_refunds r JOIN payins p ON p.id = r.payin_id
     WHERE r.id = ${refundId}::uuid AND r.merchant_id = ${merchantId}
       FOR UPDATE OF r, p`);
  return row;
}

/** The gateway waiting to answer the refund hears of the decision on commit (the transfers' channel: ids are UUIDs). */
function announce(tx: SqlClient, refundId: string, status: 'pending' | 'refused') {
  return tx.query(sql`SELECT pg_notify(${DISBURSEMENT_DECIDED_CHANNEL}::text, ${`${refundId}:${status}`}::text)`);
}

/**
 * A merchant's refund of a pay-in (issue 44). While the pay-in is unsettled the refund takes
 * from pending what is left of the pay-in's net there (net minus what earlier refunds took), the
 * rest (the fee we kept) from available; once settled, all from available. Refused
 * (INSUFFICIENT_BALANCE) when the balance does not cover that, and then the refund row is
 * `refused`. Debited: the row is `pending` (the sender takes it to the acquirer), the pay-in's
 * refunded_pending grows by what came out of pending, so its settlement moves only the rest.
 */
export async function refundPayin(ctx: HandlerContext, cmd: RefundPayinCommand): Promise<Decision> {
  const row = await refundRow(ctx.tx, ctx.merchantId, cmd.refundId);
  const amount = BigInt(cmd.amount);
  if (!row || row.status !== 'debiting' || row.payin_id !== cmd.payinId || row.amount !== amount)
    return reject(RejectionReason.RefundInvalid, {
      refundId: cmd.refundId,
      status: row?.status ?? 'none',
      amount: row?.amount.toString() ?? 'none',
    });
  if (row.payin_status !== 'success' || !row.payin_recorded)
    return refused(RejectionReason.PayinNotRecordable, cmd.refundId, {
      payinId: cmd.payinId,
      status: row.payin_status,
    });
  const fromPending = row.settled ? 0n : minimum(amount, row.left_net > 0n ? row.left_net : 0n);
  const fromAvailable = amount - fromPending;
  if (ctx.balance.pending < fromPending || ctx.balance.available < fromAvailable)
    return refused(RejectionReason.InsufficientBalance, cmd.refundId, {
      available: ctx.balance.available.toString(),
      pending: ctx.balance.pending.toString(),
      requiredAvailable: fromAvailable.toString(),
      requiredPending: fromPending.toString(),
    });
  return {
    kind: 'event',
    eventType: LedgerEventType.PayinRefunded,
    reference: cmd.refundId,
    availableDelta: -fromAvailable,
    pendingDelta: -fromPending,
    payload: {
      refundId: cmd.refundId,
      payinId: cmd.payinId,
      amount: cmd.amount,
      fromPending: fromPending.toString(),
      fromAvailable: fromAvailable.toString(),
      ...(row.sandbox ? { sandbox: true } : {}),
    },
    postings: payinRefundedPostings({ merchantId: ctx.merchantId, fromPending, fromAvailable, sandbox: row.sandbox }),
    project: async (tx, eventId) => {
      await tx.execute(sql`
        WITH p AS (UPDATE payins SET refunded_pending = refunded_pending + ${fromPending} WHERE id = ${cmd.payinId}::uuid)
        UPDATE payin_refunds SET status = 'pending', source = ${fromPending > 0n ? 'pending' : 'available'},
               from_pending = ${fromPending}, from_available = ${fromAvailable}, ledger_event_id = ${eventId},
               next_attempt_at = now(), updated_at = now()
         WHERE id = ${cmd.refundId}::uuid`);
      await announce(tx, cmd.refundId, 'pending');
    },
  };
}

function refused(reason: RejectionReason, refundId: string, detail: Record<string, string>): Rejection {
  return {
    ...reject(reason, detail),
    project: async (tx) => {
      await tx.execute(sql`
        UPDATE payin_refunds SET status = 'refused', refusal_reason = ${reason}, completed_at = now(), updated_at = now()
         WHERE id = ${refundId}::uuid AND status = 'debiting'`);
      await announce(tx, refundId, 'refused');
    },
  };
}

/**
 * The acquirer refused a debited refund: its money back, once (one event per refund). What
 * came out of pending goes back to pending while the pay-in is still unsettled (its settlement
 * will move it), to available once it settled (its settlement moved only what was left);
 * what came out of available goes back there.
 */
export async function returnPayinRefund(ctx: HandlerContext, cmd: ReturnPayinRefundCommand): Promise<Decision> {
  const row = await refundRow(ctx.tx, ctx.merchantId, cmd.refundId);
  if (!row || row.status !== 'failed')
    return reject(RejectionReason.RefundInvalid, { refundId: cmd.refundId, status: row?.status ?? 'none' });
  const toPending = row.settled ? 0n : row.from_pending;
  const toAvailable = row.amount - toPending;
  return {
    kind: 'event',
    eventType: LedgerEventType.PayinRefundReturned,
    reference: cmd.refundId,
    availableDelta: toAvailable,
    pendingDelta: toPending,
    payload: {
      refundId: cmd.refundId,
      payinId: row.payin_id,
      amount: row.amount.toString(),
      toPending: toPending.toString(),
      toAvailable: toAvailable.toString(),
      reason: cmd.reason,
      ...(row.sandbox ? { sandbox: true } : {}),
    },
    postings: payinRefundReturnedPostings({ merchantId: ctx.merchantId, toPending, toAvailable, sandbox: row.sandbox }),
    project: async (tx, eventId) => {
      await tx.execute(sql`
        WITH p AS (UPDATE payins SET refunded_pending = refunded_pending - ${toPending} WHERE id = ${row.payin_id}::uuid)
        UPDATE payin_refunds SET return_event_id = ${eventId}, updated_at = now() WHERE id = ${cmd.refundId}::uuid`);
    },
  };
}

function minimum(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
