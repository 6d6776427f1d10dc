import { ErrorCode } from '@pay/contracts';
import type { MerchantDelivery, MerchantEventRepository, WebhookDeliveryRepository } from '@pay/persistence';
import { ApiError } from '@pay/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ResendOutcome = {
  message: 'Callback queued for resend' | 'Callback already queued';
  delivery: MerchantDelivery;
};

/**
 * A merchant's own delivery sent again from the start of the retry schedule (same event id and
 * body), for the merchant API and the dashboard alike. Idempotent: one already waiting to be sent
 * is answered as it is. Another merchant's or an unknown id: 404 NOT_FOUND; one being attempted
 * at this moment: 409 CONFLICT.
 */
export async function resendOwnDelivery(
  events: MerchantEventRepository,
  deliveries: WebhookDeliveryRepository,
  merchantId: number,
  id: string,
): Promise<ResendOutcome> {
  const own = UUID.test(id) ? await events.delivery(merchantId, id) : null;
  if (!own) throw new ApiError(ErrorCode.NotFound, 'No callback delivery of yours has this id');
  if (own.status === 'pending') return { message: 'Callback already queued', delivery: own };
  const resent = await deliveries.resend(own.id, new Date());
  const after = resent ? await events.delivery(merchantId, id) : null;
  if (!after) throw new ApiError(ErrorCode.Conflict, 'A callback attempt is in progress; try again in a moment');
  return { message: 'Callback queued for resend', delivery: after };
}
