import { Secret, TOTP } from 'otpauth';
import { toDataURL } from 'qrcode';

/** RFC 6238 as decision 0023 fixes it: SHA-1, 6 digits, 30 s steps, a code of the step before or after accepted. */
const PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const WINDOW = 1;
const ISSUER = 'Payments';

export interface TotpEnrolment {
  /** base32, for typing into an app */
  secret: string;
  /** otpauth://totp/... */
  url: string;
  /** The URL as a QR code, a PNG data URL */
  qr: string;
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export async function totpEnrolment(secret: string, email: string): Promise<TotpEnrolment> {
  const url = new TOTP({ ...PARAMS, issuer: ISSUER, label: email, secret: Secret.fromBase32(secret) }).toString();
  return { secret, url, qr: await toDataURL(url, { errorCorrectionLevel: 'M', margin: 1, width: 240 }) };
}

/** Whether `code` is the secret's code for `now` (± one step). Anything but 6 digits is not. */
export function totpCodeMatches(secret: string, code: string | undefined, now: Date): boolean {
  if (!code || !/^\d{6}$/.test(code)) return false;
  return TOTP.validate({ ...PARAMS, token: code, secret: Secret.fromBase32(secret), timestamp: now.getTime(), window: WINDOW }) !== null;
}
