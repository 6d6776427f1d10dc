import { classifyResponse, nextAttemptDelayMs, parseRetryAfter, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from './retry-schedule';
import { computeSignature, signatureHeader, verifySignatureHeader } from './signature';
import { isAllowedWebhookAddress } from './target-address';

describe('webhook retry schedule', () => {
  it('spans about 24 hours over 10 attempts', () => {
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(10);
    expect(total / 3_600_000).toBeCloseTo(23.7, 1);
  });

  it('classifies responses', () => {
    expect([200, 204, 299].map(classifyResponse)).toEqual(['delivered', 'delivered', 'delivered']);
    expect([null, 408, 429, 500, 503].map(classifyResponse)).toEqual(Array(5).fill('retryable'));
    expect([301, 400, 401, 404, 410].map(classifyResponse)).toEqual(Array(5).fill('final'));
  });

  it('jitters within ±20 % and stops after the last attempt', () => {
    expect(nextAttemptDelayMs(1, 0.5)).toBe(30_000);
    expect(nextAttemptDelayMs(1, 0)).toBe(24_000);
    expect(nextAttemptDelayMs(1, 0.999999)).toBe(36_000);
    expect(nextAttemptDelayMs(9, 0.5)).toBe(28_800_000);
    expect(nextAttemptDelayMs(10, 0.5)).toBeNull();
  });

  it('honours Retry-After as a minimum, capped at 24 h', () => {
    expect(nextAttemptDelayMs(1, 0.5, 120_000)).toBe(120_000);
    expect(nextAttemptDelayMs(1, 0.5, 1_000)).toBe(30_000);
    expect(nextAttemptDelayMs(1, 0.5, 10 * 86_400_000)).toBe(86_400_000);
    const now = new Date('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('webhook signature', () => {
  const body = '{"id":"evt_1","type":"disbursement.succeeded"}';
  it('signs <timestamp>.<body> and verifies with tolerance', () => {
    const header = signatureHeader(['whsec_a'], 1_700_000_000, body);
    expect(header).toBe(`t=1700000000,v1=${computeSignature('whsec_a', 1_700_000_000, body)}`);
    expect(verifySignatureHeader(header, body, 'whsec_a', 1_700_000_100)).toBe(true);
    expect(verifySignatureHeader(header, body + ' ', 'whsec_a', 1_700_000_100)).toBe(false);
    expect(verifySignatureHeader(header, body, 'whsec_b', 1_700_000_100)).toBe(false);
    expect(verifySignatureHeader(header, body, 'whsec_a', 1_700_000_400)).toBe(false); // replay outside 5 min
  });

  it('carries one signature per valid secret during rotation', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], 1_700_000_000, body);
    expect(verifySignatureHeader(header, body, 'whsec_new', 1_700_000_000)).toBe(true);
    expect(verifySignatureHeader(header, body, 'whsec_old', 1_700_000_000)).toBe(true);
  });

  it('reads a malformed header as no match instead of throwing', () => {
    const t = 't=1700000000';
    for (const header of [`${t},v1=${'z'.repeat(64)}`, `${t},v1=${'0'.repeat(63)}g`, `${t},v1=${'ab'.repeat(64)}`, `${t},v1`, `${t},v1=`, `v1=${'0'.repeat(64)}`, 'x'.repeat(8000)]) {
      expect(verifySignatureHeader(header, body, 'whsec_a', 1_700_000_000)).toBe(false);
    }
  });
});

describe('webhook target addresses', () => {
  it.each([
    ['93.184.216.34', false, true],
    ['2606:2800:220:1:248:1893:25c8:1946', false, true],
    ['127.0.0.1', false, false],
    ['127.0.0.1', true, true],
    ['::1', true, true],
    ['10.1.2.3', true, false],
    ['192.168.1.1', true, false],
    ['172.16.0.1', false, false],
    ['169.254.169.254', true, false],
    ['100.64.0.1', false, false],
    ['fd00::1', false, false],
    ['fe80::1', false, false],
    ['::ffff:10.0.0.1', false, false],
    ['0.0.0.0', true, false],
  ])('%s (allowLoopback %p) -> %p', (ip, allowLoopback, allowed) => {
    expect(isAllowedWebhookAddress(ip, { allowLoopback })).toBe(allowed);
  });
});
