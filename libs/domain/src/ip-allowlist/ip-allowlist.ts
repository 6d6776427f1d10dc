import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An entry as matched: a network address and its prefix length, both in the same family. */
interface Range {
  base: Address;
  bits: number;
}

const MAPPED_SPACE = ipaddr.IPv6.parse('::ffff:0:0');

/**
 * An address written plainly: IPv4 only as four decimal parts (ipaddr.parse would also take
 * `10.1`, `0x0a000001` or octal `010.0.0.1`, each a different address than it reads as), IPv6
 * without a zone id and not in the deprecated IPv4-compatible text form `::a.b.c.d` (which
 * ipaddr.js reads as ::ffff:a.b.c.d). Null when the text is neither.
 */
function parseStrict(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes('%') || /^::[0-9]+\./.test(text) || !ipaddr.IPv6.isValid(text)) return null;
  return ipaddr.IPv6.parse(text);
}

/** A client address; a dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d, which is that IPv4 address. */
function parseClient(text: string): Address | null {
  const addr = parseStrict(text);
  return addr?.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

/** The first address of the range (host bits cleared), so the stored entry reads as what it matches. */
function networkAddress(addr: Address, bits: number): Address {
  const bytes = addr.toByteArray().map((byte, i) => {
    const keep = Math.min(8, Math.max(0, bits - i * 8));
    return byte & (0xff << (8 - keep)) & 0xff;
  });
  return ipaddr.fromByteArray(bytes);
}

/**
 * Parses one entry strictly; a string says why it is refused. An IPv4-mapped range
 * (::ffff:a.b.c.d/n) is the IPv4 range a.b.c.d/(n-96) and needs n >= 96: a shorter prefix
 * reaches past the mapped space and would take in every IPv4 client. For the same reason an
 * IPv6 range that contains the whole mapped space (::/0, ::/64, ::ffff:0:0/80...) is refused:
 * IPv4 clients are listed as IPv4 ranges.
 */
function parseEntry(entry: string): Range | string {
  const text = entry.trim();
  const slash = text.indexOf('/');
  const addrText = slash === -1 ? text : text.slice(0, slash);
  const bitsText = slash === -1 ? null : text.slice(slash + 1);
  const parsed = parseStrict(addrText);
  if (!parsed) return 'is not an IPv4/IPv6 address or CIDR range';
  const max = parsed.kind() === 'ipv4' ? 32 : 128;
  if (bitsText !== null && !/^[0-9]{1,3}$/.test(bitsText)) return 'has a prefix length that is not a number';
  let bits = bitsText === null ? max : Number(bitsText);
  if (bits > max) return `has a prefix length above /${max}`;
  let base: Address = parsed;
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      if (bits < 96) return 'is an IPv4-mapped range shorter than /96 (write the IPv4 range instead)';
      base = v6.toIPv4Address();
      bits -= 96;
    } else if (bits <= 96 && MAPPED_SPACE.match(v6, bits)) {
      return 'contains every IPv4-mapped address (list IPv4 clients as IPv4 ranges)';
    }
  }
  return { base: networkAddress(base, bits), bits };
}

/**
 * Normalises one allowlist entry (an address or a CIDR range) for storage; throws RangeError when
 * it is malformed or could match more than it says (see parseEntry).
 */
export function normaliseAllowlistEntry(entry: string): string {
  const range = parseEntry(entry);
  if (typeof range === 'string') throw new RangeError(`"${entry}" ${range}`);
  const single = range.bits === (range.base.kind() === 'ipv4' ? 32 : 128) && !entry.includes('/');
  return single ? range.base.toNormalizedString() : `${range.base.toNormalizedString()}/${range.bits}`;
}

/**
 * True when `ip` matches one of the entries (addresses or CIDR ranges, IPv4 or IPv6). An IPv4
 * client matches IPv4 entries only, whichever form it arrives in; an entry stored before entries
 * were validated that the rules refuse matches nothing.
 */
export function isIpAllowed(ip: string, entries: readonly string[]): boolean {
  const candidate = parseClient(ip);
  if (!candidate) return false;
  return entries.some((entry) => {
    const range = parseEntry(entry);
    // Same family only: ipaddr.js matches (and throws) per family, never across.
    return (
      typeof range !== 'string' && range.base.kind() === candidate.kind() && candidate.match(range.base, range.bits)
    );
  });
}
