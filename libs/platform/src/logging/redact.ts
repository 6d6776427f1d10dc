import type { redactOptions } from 'pino';

export const REDACTED = '[REDACTED]';

/** A query parameter whose value is a credential: its name contains one of these words. */
const SENSITIVE_PARAM = /token|secret|key|password|passwd|signature|auth/i;

/** Request headers that carry a credential (merchant token, admin bearer, acquirer signature, sessions). */
const SECRET_HEADERS = [
  'token',
  'authorization',
  'cookie',
  'set-cookie',
  'x-acquirer-signature',
  'x-callback-signature',
];

/**
 * A merchant API token's shape (libs/persistence's generateToken: mtk_ + base64url), in any case
 * and with any of its characters percent-encoded once (mtk%5F..., %6Dtk_...), as a server would
 * decode it from a URL.
 */
const TOKEN_CHAR = '(?:[A-Za-z0-9_-]|%(?:3[0-9]|4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9A]|2D))';
const MERCHANT_TOKEN = new RegExp(`(?:m|%6D)(?:t|%74)(?:k|%6B)(?:_|%5F)${TOKEN_CHAR}+`, 'gi');
const MASKED_TOKEN = `mtk_${REDACTED}`;

/**
 * Text with every merchant token shape in it replaced by mtk_[REDACTED]: in a path segment, a
 * query key or value, a fragment, a header value, a message. A merchant that puts its token in
 * the URL (by mistake, or a client that does) must not find it in our logs, whatever the
 * parameter's name or where in the URL it sits.
 */
export function maskTokens(text: string): string {
  return text.replace(MERCHANT_TOKEN, MASKED_TOKEN);
}

/** Log keys that hold a URL or a request target (path and query). */
const URL_KEYS = ['path', 'url', 'originalUrl'];

/**
 * A URL or request target with the values of its credential-like query parameters replaced by
 * [REDACTED] (`/api/v1/payin/balance?token=[REDACTED]&page=2`). Everything else is kept as it
 * arrived, so the line still says what was asked. A merchant who sends its token as ?token=
 * instead of the header must not find it in our logs.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const params = url
    .slice(start + 1)
    .split('&')
    .map((param) => {
      // The name as the server reads it: percent-decoded, '+' as a space (to%6Ben is token).
      const [[name] = ['']] = new URLSearchParams(param);
      if (!SENSITIVE_PARAM.test(name)) return param;
      const end = param.indexOf('=');
      return `${end === -1 ? param : param.slice(0, end)}=${REDACTED}`;
    });
  return `${url.slice(0, start)}?${params.join('&')}`;
}

/**
 * pino's redaction for every service logger: URL fields anywhere in the first two levels of a
 * line (the access log's `path`, an error's `path`, a logged request's `url`) lose their query
 * credentials, and secret headers of a logged request or response are replaced outright.
 */
export const LOG_REDACTION: redactOptions = {
  paths: [
    ...URL_KEYS.flatMap((key) => [key, `*.${key}`]),
    ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
  ],
  censor: (value: unknown, path: string[]) =>
    URL_KEYS.includes(path[path.length - 1]) && typeof value === 'string' ? redactUrl(value) : REDACTED,
};
