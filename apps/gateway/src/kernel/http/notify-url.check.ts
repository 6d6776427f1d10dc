import { ErrorCode } from '@pay/contracts';
import { ApiError, checkWebhookTarget, type WebhookTargetPolicy, WebhookTargetRefused } from '@pay/platform';

/**
 * A callback URL may not point into our own network (SSRF): `400 NOTIFY_URL_NOT_ALLOWED` naming
 * the field. Delivery checks again at connect time (DNS may change).
 */
export async function assertNotifyUrlAllowed(
  url: string,
  policy: WebhookTargetPolicy,
  field = 'notifyUrl',
): Promise<void> {
  try {
    await checkWebhookTarget(url, policy);
  } catch (err) {
    if (!(err instanceof WebhookTargetRefused)) throw err;
    const message = `${err.message}; callbacks go to public addresses only`;
    throw new ApiError(ErrorCode.NotifyUrlNotAllowed, `${field}: ${message}`, [{ field, message }]);
  }
}
