import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 (hex) of `<timestamp>.<raw body>` with the merchant's webhook secret. */
export function computeSignature(secret: string, timestampSec: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestampSec}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * The X-Callback-Signature header: `t=<unix seconds>,v1=<hex>`; during a secret rotation one
 * `v1=` per valid secret (newest first), so receivers holding either secret can verify.
 */
export function signatureHeader(secrets: readonly string[], timestampSec: number, rawBody: string): string {
  return [`t=${timestampSec}`, ...secrets.map((s) => `v1=${computeSignature(s, timestampSec, rawBody)}`)].join(',');
}

/**
 * What a merchant does: true when one v1 signature matches and the timestamp is within tolerance.
 * Any malformed header (no `t=`, a v1 that is not 64 hex digits) is simply not a match: a v1 with
 * non-hex characters would decode to fewer bytes, and timingSafeEqual throws on a length mismatch.
 */
export function verifySignatureHeader(
  header: string,
  rawBody: string,
  secret: string,
  nowSec: number,
  toleranceSec = 300,
): boolean {
  const parts = header.split(',').map((p) => p.split('=', 2) as [string, string | undefined]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSec - t) > toleranceSec) return false;
  const expected = Buffer.from(computeSignature(secret, t, rawBody), 'hex');
  return parts.some(
    ([k, v]) => k === 'v1' && v !== undefined && HEX_SHA256.test(v) && timingSafeEqual(Buffer.from(v, 'hex'), expected),
  );
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
