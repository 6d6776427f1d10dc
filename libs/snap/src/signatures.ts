import { createHash, createHmac, createSign, createVerify, timingSafeEqual } from 'node:crypto';

/**
 * SNAP's signatures (reference §1, §2.2, §2.3). Every function takes the exact strings and bytes
 * that go on the wire: the caller serialises a body once and signs and sends that buffer.
 */

/** Lower-case hex SHA-256 of the body bytes; an empty body hashes the empty string. */
export function bodyDigest(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex');
}

/**
 * Drops whitespace between JSON tokens only, keeping key order, string contents (inner spaces
 * included), nulls and number spelling: what a receiver does to a body that arrived pretty-printed.
 */
export function minifyJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') out += c;
  }
  return out;
}

/** X-SIGNATURE of the B2B access-token request: SHA256withRSA over `clientId|X-TIMESTAMP`, base64. */
export function tokenSignature(privateKeyPem: string, clientId: string, timestamp: string): string {
  return createSign('RSA-SHA256').update(`${clientId}|${timestamp}`, 'utf8').sign(privateKeyPem, 'base64');
}

export interface RequestToSign {
  method: string;
  /** The path exactly as sent after the host, provider prefix and query string included */
  path: string;
  body: Buffer | string;
  timestamp: string;
}

/** `METHOD:path:token:sha256hex(body):timestamp` (symmetric, with a token) */
export function symmetricStringToSign(req: RequestToSign, accessToken: string): string {
  return `${req.method.toUpperCase()}:${req.path}:${accessToken}:${bodyDigest(req.body)}:${req.timestamp}`;
}

/** `METHOD:path:sha256hex(body):timestamp` (asymmetric, without a token) */
export function asymmetricStringToSign(req: RequestToSign): string {
  return `${req.method.toUpperCase()}:${req.path}:${bodyDigest(req.body)}:${req.timestamp}`;
}

/** The default transactional signature: HMAC-SHA512 keyed by the client secret (as UTF-8 text), base64. */
export function symmetricSignature(req: RequestToSign, accessToken: string, clientSecret: string): string {
  return createHmac('sha512', clientSecret).update(symmetricStringToSign(req, accessToken), 'utf8').digest('base64');
}

/** The RSA variant without a token (type 2 providers, and notifications a provider sends). */
export function asymmetricSignature(req: RequestToSign, privateKeyPem: string): string {
  return createSign('RSA-SHA256').update(asymmetricStringToSign(req), 'utf8').sign(privateKeyPem, 'base64');
}

/** Verifies an RSA-signed request (a provider's notification to us) over the bytes as received. */
export function verifyAsymmetricSignature(req: RequestToSign, signature: string, publicKeyPem: string): boolean {
  try {
    return createVerify('RSA-SHA256')
      .update(asymmetricStringToSign(req), 'utf8')
      .verify(publicKeyPem, signature, 'base64');
  } catch {
    return false;
  }
}

/** Verifies an HMAC-signed request (providers that sign notifications symmetrically), in constant time. */
export function verifySymmetricSignature(
  req: RequestToSign,
  accessToken: string,
  signature: string,
  clientSecret: string,
): boolean {
  const expected = Buffer.from(symmetricSignature(req, accessToken, clientSecret), 'base64');
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
