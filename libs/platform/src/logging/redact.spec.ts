import { createLogger } from './logger';
import { redactUrl } from './redact';

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
});
