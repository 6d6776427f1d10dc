import ipaddr from 'ipaddr.js';

/**
 * IPv6 ranges that carry an IPv4 address, and the byte offset where it sits. A packet to one of
 * them can end up at that IPv4 address (through the host's own stack, a NAT64 gateway or a 6to4
 * relay), so the address is judged by the IPv4 address it embeds. (ipaddr.js reads the text
 * `::a.b.c.d` as IPv4-mapped rather than IPv4-compatible: both are judged by a.b.c.d, so the
 * decision is the same.)
 */
const IPV4_EMBEDDING: ReadonlyArray<[range: [ipaddr.IPv6, number], offset: number]> = [
  [ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), 12], // IPv4-mapped
  [ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), 12], // IPv4-translated (SIIT, RFC 6145)
  [ipaddr.IPv6.parseCIDR('::/96'), 12], // IPv4-compatible (deprecated, RFC 4291)
  [ipaddr.IPv6.parseCIDR('64:ff9b::/96'), 12], // NAT64 well-known prefix (RFC 6052)
  [ipaddr.IPv6.parseCIDR('2002::/16'), 2], // 6to4 (RFC 3056)
];

/** The address a connection to `addr` may reach: the embedded IPv4 address, or `addr` itself. */
function effectiveAddress(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (addr.kind() === 'ipv4') return addr;
  const v6 = addr as ipaddr.IPv6;
  // :: and ::1 lie inside ::/96 but are the IPv6 unspecified and loopback addresses.
  if (v6.range() === 'unspecified' || v6.range() === 'loopback') return v6;
  const embedding = IPV4_EMBEDDING.find(([range]) => v6.match(range));
  if (!embedding) return v6;
  const offset = embedding[1];
  return ipaddr.fromByteArray(v6.toByteArray().slice(offset, offset + 4));
}

/** AWS's IPv6 instance metadata address: a unique-local address that is never a merchant's. */
const METADATA_V6 = ipaddr.IPv6.parse('fd00:ec2::254');

/**
 * Whether a webhook may be sent to this resolved address. Only public unicast addresses are
 * allowed; loopback only when `allowLoopback` (tests, local runs); private (RFC 1918) and
 * unique-local only when `allowPrivate` (a host named in WEBHOOK_ALLOW_PRIVATE_HOSTS: test stacks
 * on a private network, never production), and never AWS's IPv6 metadata address. Link-local
 * (including the cloud metadata address 169.254.169.254), carrier-grade NAT, multicast and
 * reserved ranges never are, nor any other range ipaddr.js does not call 'unicast' (Teredo, the
 * local-use NAT64 prefix 64:ff9b:1::/48, documentation...). An IPv6 address embedding an IPv4
 * address (see IPV4_EMBEDDING) is judged by that IPv4 address.
 */
export function isAllowedWebhookAddress(ip: string, opts: { allowLoopback: boolean; allowPrivate?: boolean }): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const address = effectiveAddress(ipaddr.parse(ip));
  const range = address.range();
  if (range === 'unicast') return true;
  if (range === 'loopback') return opts.allowLoopback;
  if (range === 'private') return opts.allowPrivate === true;
  if (range === 'uniqueLocal')
    return (
      opts.allowPrivate === true && (address as ipaddr.IPv6).toNormalizedString() !== METADATA_V6.toNormalizedString()
    );
  return false;
}
