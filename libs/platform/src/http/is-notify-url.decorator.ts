import { applyDecorators } from '@nestjs/common';
import { isURL, IsString, IsUrl, MaxLength } from 'class-validator';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
export const NOTIFY_URL_MAX_LENGTH = 2048;

/**
 * A callback URL as every API takes it (transfer's and QRIS generate's notifyUrl, the merchant's
 * default pay-in callback URL): an absolute http(s) URL of at most 2048 characters. Where it may
 * point (public addresses only) is checked separately, at the request and again at delivery.
 */
export function IsNotifyUrl(property = 'notifyUrl'): PropertyDecorator {
  // In the order stacked decorators (@IsString @MaxLength @IsUrl) are applied, so messages come in the same order as before.
  return applyDecorators(
    IsUrl(URL_OPTIONS, { message: `${property} must be an absolute http or https URL` }),
    MaxLength(NOTIFY_URL_MAX_LENGTH),
    IsString(),
  );
}

/** The same rule outside a DTO (the admin CLI). */
export function isNotifyUrl(value: string): boolean {
  return value.length <= NOTIFY_URL_MAX_LENGTH && isURL(value, URL_OPTIONS);
}
