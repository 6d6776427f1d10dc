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

/**
 * The time step (unix seconds / 30) whose code `code` is, when it is the secret's code for `now`
 * (± one step); null otherwise, and for anything but 6 digits. The caller accepts a step only
 * once per user (DashboardUserRepository.useTotpStep): a code is single-use.
 */
export function totpStepOf(secret: string, code: string | undefined, now: Date): number | null {
  if (!code || !/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    ...PARAMS,
    token: code,
    secret: Secret.fromBase32(secret),
    timestamp: now.getTime(),
    window: WINDOW,
  });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PARAMS.period) + delta;
}

/** Whether `code` is the secret's code for `now` (± one step), used or not. */
export function totpCodeMatches(secret: string, code: string | undefined, now: Date): boolean {
  return totpStepOf(secret, code, now) !== null;
}
