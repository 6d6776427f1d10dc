import { createHmac, timingSafeEqual } from 'node:crypto';
import { CallbackSignatureError } from './errors';

/** The header every callback carries: `t=<unix seconds>,v1=<hex HMAC-SHA256>` (one v1 per valid secret). */
export const CALLBACK_SIGNATURE_HEADER = 'x-callback-signature';

export interface VerifyOptions {
  /** How old (or how far ahead) the signing time may be, in seconds: 300 by default */
  toleranceSec?: number;
  /** The time to check against, in unix seconds: now by default */
  nowSec?: number;
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * True when the callback is ours: one `v1` of the header is HMAC-SHA256(secret,
 * "<t>.<raw body>") and `t` is within the tolerance. Pass the body exactly as received (the
 * bytes, before any JSON parsing). During a secret rotation either secret verifies.
 */
/** X-Callback-Signature as a framework hands it over: node:http's `req.headers[...]`, Express's `req.get(...)`. */
export type CallbackSignatureHeader = string | string[] | null | undefined;

export function verifyCallbackSignature(
  rawBody: string | Buffer,
  header: CallbackSignatureHeader,
  secret: string,
  options: VerifyOptions = {},
): boolean {
  // node:http types a header as string | string[] | undefined: a repeated header is not a signature.
  if (Array.isArray(header)) header = header.length === 1 ? header[0] : undefined;
  if (!header || !secret) return false;
  const parts = header.split(',').map((p) => p.trim().split('=', 2) as [string, string | undefined]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const now = options.nowSec ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(t) || Math.abs(now - t) > (options.toleranceSec ?? 300)) return false;
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const expected = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest();
  return parts.some(
    ([k, v]) => k === 'v1' && v !== undefined && HEX_SHA256.test(v) && timingSafeEqual(Buffer.from(v, 'hex'), expected),
  );
}

/**
 * The callback's parsed body once its signature verifies (as stripe.webhooks.constructEvent);
 * throws CallbackSignatureError otherwise, so an unsigned or altered body is never acted on.
 */
export function constructCallbackEvent<T = unknown>(
  rawBody: string | Buffer,
  header: CallbackSignatureHeader,
  secret: string,
  options: VerifyOptions = {},
): T {
  if (!verifyCallbackSignature(rawBody, header, secret, options))
    throw new CallbackSignatureError(
      'X-Callback-Signature does not verify: wrong secret, altered body or stale timestamp',
    );
  return JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')) as T;
}
