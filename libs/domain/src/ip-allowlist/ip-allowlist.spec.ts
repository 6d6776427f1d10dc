import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
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
    expect(normaliseAllowlistEntry('10.1.2.3/16')).toBe('10.1.0.0/16');
    expect(() => normaliseAllowlistEntry('10.1.0.0/33')).toThrow(RangeError);
    expect(() => normaliseAllowlistEntry('2001:db8::/129')).toThrow(RangeError);
    expect(() => normaliseAllowlistEntry('10.1.0.0/-1')).toThrow(RangeError);
    expect(() => normaliseAllowlistEntry('10.1.0.0/')).toThrow(RangeError);
    expect(() => normaliseAllowlistEntry('example.com')).toThrow(RangeError);
    // Not four decimal parts: ipaddr.parse would read these as 10.0.0.1, 10.0.0.1 and 8.0.0.1.
    for (const odd of ['10.1', '0x0a000001', '010.0.0.1', 'fe80::1%eth0', '::10.0.0.0/104'])
      expect(() => normaliseAllowlistEntry(odd)).toThrow(RangeError);
  });

  it('stores an IPv4-mapped entry as its IPv4 form and refuses one shorter than /96', () => {
    expect(normaliseAllowlistEntry('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    expect(normaliseAllowlistEntry('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(() => normaliseAllowlistEntry('::ffff:10.0.0.0/80')).toThrow(/shorter than \/96/);
    // IPv6 ranges that contain the whole mapped space would let every IPv4 client in the same way.
    for (const wide of ['::/0', '::/64', '::ffff:0:0/80', '0:0:0:0:0:ffff::/95'])
      expect(() => normaliseAllowlistEntry(wide)).toThrow(/IPv4-mapped/);
  });

  it('lets no IPv4 client in through an IPv4-mapped entry shorter than /96 (the finding)', () => {
    for (const ip of ['203.0.113.7', '8.8.8.8', '::ffff:8.8.8.8', '10.0.0.1'])
      expect(isIpAllowed(ip, ['::ffff:10.0.0.0/80'])).toBe(false);
    expect(isIpAllowed('10.0.0.1', ['::ffff:10.0.0.0/104'])).toBe(true);
    expect(isIpAllowed('11.0.0.1', ['::ffff:10.0.0.0/104'])).toBe(false);
  });
});

describe('isIpAllowed properties', () => {
  const v4Cidr = fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 }));
  const v6Cidr = fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 }));
  const accepted = (entry: string) => {
    try {
      normaliseAllowlistEntry(entry);
      return true;
    } catch {
      return false;
    }
  };
  // Any entry at all, well formed or not, as an admin might type it.
  const anyEntry = fc.oneof(
    v4Cidr.map(([a, n]) => `${a}/${n}`),
    v6Cidr.map(([a, n]) => `${a}/${n}`),
    fc.ipV4().map((a) => `::ffff:${a}`),
    fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 128 })).map(([a, n]) => `::ffff:${a}/${n}`),
    fc.ipV4(),
    fc.ipV6(),
  );

  it('an IPv4 address matches an IPv4 range exactly when ipaddr.js says so', () => {
    fc.assert(
      fc.property(fc.ipV4(), v4Cidr, (ip, [base, bits]) => {
        expect(isIpAllowed(ip, [`${base}/${bits}`])).toBe(ipaddr.IPv4.parse(ip).match(ipaddr.IPv4.parse(base), bits));
      }),
      { numRuns: 2000 },
    );
  });

  it('an IPv6 address matches an accepted IPv6 range exactly when ipaddr.js says so', () => {
    fc.assert(
      fc.property(
        fc.ipV6().filter((ip) => !ipaddr.IPv6.parse(ip).isIPv4MappedAddress()),
        v6Cidr.filter(([base, bits]) => !ipaddr.IPv6.parse(base).isIPv4MappedAddress() && accepted(`${base}/${bits}`)),
        (ip, [base, bits]) => {
          expect(isIpAllowed(ip, [`${base}/${bits}`])).toBe(ipaddr.IPv6.parse(ip).match(ipaddr.IPv6.parse(base), bits));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives an IPv4 client the same decision in its plain and its IPv4-mapped form', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.array(anyEntry, { maxLength: 4 }), (ip, entries) => {
        expect(isIpAllowed(`::ffff:${ip}`, entries)).toBe(isIpAllowed(ip, entries));
      }),
      { numRuns: 2000 },
    );
  });

  it('an IPv4-mapped entry is its IPv4 range from /96 on, and matches nothing below', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), fc.integer({ min: 0, max: 128 }), (ip, base, bits) => {
        const mapped = `::ffff:${base}/${bits}`;
        if (bits >= 96) {
          expect(isIpAllowed(ip, [mapped])).toBe(isIpAllowed(ip, [`${base}/${bits - 96}`]));
        } else {
          expect(() => normaliseAllowlistEntry(mapped)).toThrow(RangeError);
          expect(isIpAllowed(ip, [mapped])).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never lets an IPv4 client in through an IPv6 entry, and a normalised entry decides as the original', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), anyEntry, (ip, entry) => {
        if (!accepted(entry)) {
          expect(isIpAllowed(ip, [entry])).toBe(false);
          return;
        }
        const normalised = normaliseAllowlistEntry(entry);
        expect(isIpAllowed(ip, [normalised])).toBe(isIpAllowed(ip, [entry]));
        if (normalised.includes(':') && ipaddr.process(ip).kind() === 'ipv4')
          expect(isIpAllowed(ip, [entry])).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});
