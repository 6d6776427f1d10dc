import ipaddr from 'ipaddr.js';

/** Normalises one allowlist entry (an address or a CIDR range); throws RangeError when it is neither. */
export function normaliseAllowlistEntry(entry: string): string {
  const text = entry.trim();
  try {
    if (text.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(text);
      return `${addr.toNormalizedString()}/${bits}`;
    }
    return ipaddr.parse(text).toNormalizedString();
  } catch {
    throw new RangeError(`"${entry}" is not an IPv4/IPv6 address or CIDR range`);
  }
}

function unmap(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  // ::ffff:10.0.0.1 is how a dual-stack socket reports an IPv4 peer.
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

/** True when `ip` matches one of the entries (addresses or CIDR ranges, IPv4 or IPv6). */
export function isIpAllowed(ip: string, entries: readonly string[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const candidate = unmap(ipaddr.parse(ip));
  return entries.some((entry) => {
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        const base = unmap(range);
        const prefix = base.kind() === range.kind() ? bits : bits - 96;
        return candidate.kind() === base.kind() && candidate.match(base, prefix);
      }
      const single = unmap(ipaddr.parse(entry));
      return candidate.kind() === single.kind() && candidate.toNormalizedString() === single.toNormalizedString();
    } catch {
      return false;
    }
  });
}
