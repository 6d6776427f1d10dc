import { ErrorCode } from '@pay/contracts';
import {
  deadLetterView,
  type MerchantAdmin,
  type PrismaClient,
  type ReplayResult,
  SettlementPlanner,
  type WebhookDelivery,
} from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';

const INT8_MAX = 9_223_372_036_854_775_807n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Operator actions both the ops API (admin token) and the operator console (operator session)
 * answer: one place for their rules, refusals and answers.
 */

/** A merchant with default fees, one API token (answered once) and its webhook secret. */
export async function onboardMerchant(admin: MerchantAdmin, name: string, tokenLabel: string) {
  const merchant = await admin.create({ name });
  const { token } = await admin.issueToken(merchant.id, tokenLabel);
  const { secret } = await admin.webhookSecret(merchant.id);
  return new Reply('Merchant created', {
    merchantId: merchant.id,
    name: merchant.name,
    nmid: merchant.nmid,
    token,
    webhookSecret: secret,
  });
}

/** Requests the merchant's settlement for a cut-off (default now, never in the future); the ledger credits it asynchronously. */
export async function requestSettlement(prisma: PrismaClient, merchantId: number, cutoffAt: Date | undefined) {
  const cutoff = cutoffAt ?? new Date();
  if (cutoff.getTime() > Date.now())
    throw new ApiError(ErrorCode.ValidationError, 'cutoff: cutoff must not be in the future', [
      { field: 'cutoff', message: 'cutoff must not be in the future' },
    ]);
  const planned = await new SettlementPlanner(prisma).plan(merchantId, cutoff);
  return new Reply(
    planned ? 'Settlement requested' : 'Nothing to settle',
    planned ?? { merchantId, cutoffAt: cutoff, payinCount: 0, requested: false },
  );
}

/** A dead letter's id from the path: anything that cannot be one is an unknown dead letter. */
export function deadLetterId(id: string): bigint {
  // Beyond int8 the query itself would fail: still just an unknown dead letter.
  if (!/^[1-9]\d{0,18}$/.test(id) || BigInt(id) > INT8_MAX)
    throw new ApiError(ErrorCode.NotFound, 'Dead letter not found');
  return BigInt(id);
}

/** A replay's answer: 404 unknown, 400 not open or not JSON, the replayed letter otherwise. */
export function deadLetterReplayReply(r: ReplayResult) {
  switch (r.outcome) {
    case 'not-found':
      throw new ApiError(ErrorCode.NotFound, 'Dead letter not found');
    case 'not-open':
      throw new ApiError(ErrorCode.ValidationError, `Dead letter is ${r.deadLetter.status} already`);
    case 'not-json':
      throw new ApiError(
        ErrorCode.ValidationError,
        'Dead letter value is not JSON and can never be processed; resolve it instead',
      );
    case 'replayed':
      return new Reply('Dead letter replayed', deadLetterView(r.deadLetter));
  }
}

/** A webhook delivery's id from the path: anything that cannot be one is an unknown delivery. */
export function webhookDeliveryId(id: string): string {
  if (!UUID.test(id)) throw new ApiError(ErrorCode.NotFound, 'Webhook delivery not found');
  return id;
}

/** A resend's answer: 404 when the delivery is unknown or an attempt is in progress (nothing was resent). */
export function webhookResendReply(d: WebhookDelivery | null) {
  if (!d) throw new ApiError(ErrorCode.NotFound, 'Webhook delivery not found or an attempt is in progress');
  return new Reply('Delivery queued for resend', { id: d.id, eventId: d.eventId, status: d.status });
}
