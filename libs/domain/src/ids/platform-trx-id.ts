import { formatJakartaDateTime } from '../time/jakarta-time';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A platform transaction id: prefix (DSB disbursement, QR pay-in) + the Asia/Jakarta date +
 * 12 Crockford base32 characters from `random` (12 random bytes; 60 bits). A QR id is 22
 * characters, within the 25 of the QRIS reference field.
 */
export function platformTrxId(prefix: 'DSB' | 'QR', now: Date, random: Uint8Array): string {
  if (random.length < 12) throw new RangeError('platformTrxId needs 12 random bytes');
  const date = formatJakartaDateTime(now).slice(0, 10).replace(/-/g, '');
  return `${prefix}${date}${[...random.subarray(0, 12)].map((b) => CROCKFORD[b % 32]).join('')}`;
}
