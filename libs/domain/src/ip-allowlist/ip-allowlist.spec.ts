import { isIpAllowed, normaliseAllowlistEntry } from './ip-allowlist';

describe('isIpAllowed', () => {
  const list = ['203.0.113.7', '10.1.0.0/16', '2001:db8::/32', '::1'];

  it.each([
    ['203.0.113.7', true],
    ['203.0.113.8', false],
    ['10.1.255.3', true],
    ['10.2.0.1', false],
    ['::ffff:10.1.2.3', true],
    ['2001:db8:1::5', true],
    ['2001:db9::1', false],
    ['::1', true],
    ['not-an-ip', false],
  ])('%s -> %p', (ip, allowed) => {
    expect(isIpAllowed(ip, list)).toBe(allowed);
  });

  it('normalises entries and refuses junk', () => {
    expect(normaliseAllowlistEntry(' 10.1.0.0/16 ')).toBe('10.1.0.0/16');
    expect(normaliseAllowlistEntry('2001:DB8::1')).toBe('2001:db8:0:0:0:0:0:1');
    expect(() => normaliseAllowlistEntry('10.1.0.0/33')).toThrow(RangeError);
    expect(() => normaliseAllowlistEntry('example.com')).toThrow(RangeError);
  });
});
