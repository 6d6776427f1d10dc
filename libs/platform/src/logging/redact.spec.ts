import { createLogger } from './logger';
import { maskTokens, redactUrl } from './redact';

// The shape generateToken mints: mtk_ + 43 base64url characters.
const TOKEN = 'mtk_3q9Zk2M4T7pA-x_Ld0eR8sVb1NcQy6WuHo5JiKfGt2E';
const SECRET = TOKEN.slice('mtk_'.length);
const MASKED = 'mtk_[REDACTED]';

describe('maskTokens', () => {
  it.each([
    ['a path segment', `/api/v1/payin/balance/${TOKEN}`, `/api/v1/payin/balance/${MASKED}`],
    ['the whole path', `/${TOKEN}`, `/${MASKED}`],
    ['a bare query key', `/api/v1/payin/balance?${TOKEN}`, `/api/v1/payin/balance?${MASKED}`],
    ['a query key with a value', `/x?${TOKEN}=1&page=2`, `/x?${MASKED}=1&page=2`],
    ['a query value under any name', `/x?ref=${TOKEN}&page=2`, `/x?ref=${MASKED}&page=2`],
    ['a fragment', `/x?page=2#${TOKEN}`, `/x?page=2#${MASKED}`],
    ['a header value', `Bearer ${TOKEN}`, `Bearer ${MASKED}`],
    [
      'an absolute URL',
      `https://merchant.example/cb/${TOKEN}?t=${TOKEN}`,
      `https://merchant.example/cb/${MASKED}?t=${MASKED}`,
    ],
    ['a percent-encoded underscore', `/x/mtk%5F${SECRET}`, `/x/${MASKED}`],
    ['percent-encoded letters', `/x/%6d%74%6B_${SECRET}`, `/x/${MASKED}`],
    ['percent-encoded characters inside', `/x/mtk_${SECRET.slice(0, 10)}%2D%41${SECRET.slice(10)}`, `/x/${MASKED}`],
    ['upper case', `/x/MTK_${SECRET}`, `/x/${MASKED}`],
    ['a cut token', `/x/mtk_3q9Zk2`, `/x/${MASKED}`],
    ['text around it', `token ${TOKEN}, again:${TOKEN}.`, `token ${MASKED}, again:${MASKED}.`],
  ])('masks a token in %s', (_where, text, masked) => {
    expect(maskTokens(text)).toBe(masked);
    expect(maskTokens(text)).not.toContain(SECRET.slice(0, 6));
  });

  it.each([
    '/api/v1/payin/balance?page=2',
    '/x/mtk_',
    '/x/mtk-abc',
    'the mtk_ prefix',
    '/x/%6d%74%6b',
    'INV-2026-0001',
  ])('leaves %s as it is', (text) => {
    expect(maskTokens(text)).toBe(text);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/api/v1/payin/balance', '/api/v1/payin/balance'],
    ['/api/v1/payin/balance?token=mt_secret', '/api/v1/payin/balance?token=[REDACTED]'],
    [
      '/x?page=2&Token=a&apiKey=b&client_secret=c&password=d&signature=e&auth=f&q=keep',
      '/x?page=2&Token=[REDACTED]&apiKey=[REDACTED]&client_secret=[REDACTED]&password=[REDACTED]&signature=[REDACTED]&auth=[REDACTED]&q=keep',
    ],
    // Written the way a server decodes it, the name is still token.
    ['/x?to%6Ben=a&access+token=b&token', '/x?to%6Ben=[REDACTED]&access+token=[REDACTED]&token=[REDACTED]'],
    ['/x?token=a=b&token=c', '/x?token=[REDACTED]&token=[REDACTED]'],
    ['https://merchant.example/cb?sig=1&key=2', 'https://merchant.example/cb?sig=1&key=[REDACTED]'],
    ['/x?', '/x?'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('service logger redaction', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    return { logger, lines, text: () => JSON.stringify(lines) };
  };

  it('redacts query credentials in URL fields and secret headers of a logged request, leaving the rest', () => {
    const { logger, lines, text } = capture();
    logger.info({ path: '/api/v1/payin/balance?token=mt_secret_1&page=2', status: 401 }, 'request');
    logger.info(
      {
        req: {
          method: 'POST',
          url: '/internal/acquirer/notify?signature=sig_secret_2',
          headers: {
            token: 'mt_secret_3',
            authorization: 'Bearer adm_secret_4',
            cookie: 's=secret_5',
            'x-acquirer-signature': 'sig_secret_6',
            'content-type': 'application/json',
          },
        },
      },
      'request object',
    );
    logger.info({ status: 200 }, 'no url');
    expect(text()).not.toMatch(/secret/);
    expect(lines[0]).toMatchObject({ path: '/api/v1/payin/balance?token=[REDACTED]&page=2', status: 401 });
    expect(lines[1]).toMatchObject({
      req: {
        url: '/internal/acquirer/notify?signature=[REDACTED]',
        headers: {
          token: '[REDACTED]',
          authorization: '[REDACTED]',
          cookie: '[REDACTED]',
          'x-acquirer-signature': '[REDACTED]',
          'content-type': 'application/json',
        },
      },
    });
    expect(lines[2]).not.toHaveProperty('path');
    expect(lines[2]).not.toHaveProperty('url');
  });

  it('masks a merchant token anywhere in a line: URLs, any header, messages, errors, nested objects', () => {
    const { logger, lines, text } = capture();
    logger.info({ path: `/api/v1/payin/balance/${TOKEN}?${TOKEN}#${TOKEN}`, status: 404 }, 'request');
    logger.info(
      {
        req: {
          url: `/x?ref=${TOKEN}`,
          headers: { 'x-api-key': TOKEN, referer: `https://shop.example/?t=${TOKEN}`, token: TOKEN },
        },
      },
      'request object',
    );
    logger.warn({ err: new Error(`GET https://merchant.example/cb/${TOKEN} failed`) }, `callback to ${TOKEN} failed`);
    logger.info({ a: { b: { c: { d: [`mtk%5F${SECRET}`] } } } }, 'deep');
    logger.child({ callbackUrl: `https://merchant.example/${TOKEN}` }).info('child');
    expect(text()).not.toContain(SECRET.slice(0, 6));
    expect(lines[0]).toMatchObject({ path: `/api/v1/payin/balance/${MASKED}?${MASKED}#${MASKED}`, status: 404 });
    expect(lines[1]).toMatchObject({
      req: {
        url: `/x?ref=${MASKED}`,
        headers: { 'x-api-key': MASKED, referer: `https://shop.example/?t=${MASKED}`, token: '[REDACTED]' },
      },
    });
    expect(lines[2]).toMatchObject({ msg: `callback to ${MASKED} failed` });
    expect(lines[4]).toMatchObject({ callbackUrl: `https://merchant.example/${MASKED}` });
  });
});
