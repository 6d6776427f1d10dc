import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'mtk_';

/**
 * API tokens are 32 random bytes (base64url) behind a recognisable prefix, so secret
 * scanners can spot a leaked one. Only the SHA-256 is stored: a token has 256 bits of
 * entropy, so a slow password hash would add latency to every request and no safety.
 */
export function generateToken(): { token: string; hash: string; prefix: string } {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
