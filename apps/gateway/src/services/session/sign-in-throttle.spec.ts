import { addressKey } from './sign-in-throttle';

describe('addressKey: what one client address is to the sign-in limits', () => {
  it('is an IPv4 address itself, also when written IPv4-mapped', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it("is an IPv6 address's /64: one subscriber's addresses share one budget", () => {
    expect(addressKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::7')).not.toBe(addressKey('2001:db8:1:2::7'));
  });

  it('keeps anything else as it came (a socket without an address)', () => {
    expect(addressKey('')).toBe('');
    expect(addressKey('unix')).toBe('unix');
  });
});
