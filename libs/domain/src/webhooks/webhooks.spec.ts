import fc from 'fast-check';
import {
  classifyResponse,
  nextAttemptDelayMs,
  parseRetryAfter,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
} from './retry-schedule';
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
    for (const header of [
      `${t},v1=${'z'.repeat(64)}`,
      `${t},v1=${'0'.repeat(63)}g`,
      `${t},v1=${'ab'.repeat(64)}`,
      `${t},v1`,
      `${t},v1=`,
      `v1=${'0'.repeat(64)}`,
      'x'.repeat(8000),
    ]) {
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
    ['::', true, false],
    // IPv6 forms that embed an IPv4 address are judged by it: IPv4-compatible, IPv4-mapped,
    // IPv4-translated, NAT64 and 6to4.
    ['::127.0.0.1', false, false],
    ['::7f00:1', false, false],
    ['::127.0.0.1', true, true],
    ['::a9fe:a9fe', false, false],
    ['::10.0.0.1', false, false],
    ['::ffff:169.254.169.254', false, false],
    ['::ffff:0:a9fe:a9fe', false, false],
    ['64:ff9b::a9fe:a9fe', false, false],
    ['64:ff9b::10.0.0.1', false, false],
    ['64:ff9b::7f00:1', false, false],
    ['2002:a9fe:a9fe::1', false, false],
    ['2002:7f00:1::', false, false],
    ['2002:c0a8:101::', false, false],
    ['::93.184.216.34', false, true],
    ['::ffff:93.184.216.34', false, true],
    ['64:ff9b::93.184.216.34', false, true],
    ['2002:5db8:d822::1', false, true],
    // Not global: local-use NAT64, Teredo, documentation, discard-only, site-local, multicast.
    ['64:ff9b:1::5db8:d822', false, false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false, false],
    ['2001:db8::1', false, false],
    ['100::1', false, false],
    ['fec0::1', false, false],
    ['ff02::1', false, false],
  ])('%s (allowLoopback %p) -> %p', (ip, allowLoopback, allowed) => {
    expect(isAllowedWebhookAddress(ip, { allowLoopback })).toBe(allowed);
  });

  // A host named in WEBHOOK_ALLOW_PRIVATE_HOSTS (test stacks): private and unique-local open, nothing else.
  it.each([
    ['10.1.2.3', true],
    ['172.18.0.11', true],
    ['192.168.1.20', true],
    ['fd12:3456::1', true],
    ['::ffff:10.1.2.3', true],
    ['93.184.216.34', true],
    ['127.0.0.1', false],
    ['::1', false],
    ['169.254.169.254', false],
    ['::ffff:169.254.169.254', false],
    ['fd00:ec2::254', false],
    ['fe80::1', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
  ])('%s for a listed private host -> %p (never loopback, link-local, metadata)', (ip, allowed) => {
    expect(isAllowedWebhookAddress(ip, { allowLoopback: false, allowPrivate: true })).toBe(allowed);
  });

  it('a private address stays refused for every host not listed', () => {
    for (const ip of ['10.1.2.3', '172.18.0.11', '192.168.1.20', 'fd12:3456::1'])
      expect([ip, isAllowedWebhookAddress(ip, { allowLoopback: true })]).toEqual([ip, false]);
  });

  it('judges every IPv6 form embedding an IPv4 address as that IPv4 address', () => {
    fc.assert(
      // ::0.0.0.1 is ::1, the IPv6 loopback address, not an embedding.
      fc.property(
        fc.ipV4().filter((v4) => v4 !== '0.0.0.1'),
        fc.boolean(),
        (v4, allowLoopback) => {
          const [a, b, c, d] = v4.split('.').map(Number);
          const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
          const expected = isAllowedWebhookAddress(v4, { allowLoopback });
          for (const form of [
            `::${v4}`,
            `::${hex}`,
            `::ffff:${v4}`,
            `::ffff:0:${v4}`,
            `64:ff9b::${v4}`,
            `2002:${hex}::1`,
          ]) {
            expect([form, isAllowedWebhookAddress(form, { allowLoopback })]).toEqual([form, expected]);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
