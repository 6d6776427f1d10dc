import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may be sent to this resolved address. Only public unicast addresses are
 * allowed; loopback only when the setting says so (tests, local runs). Private, link-local
 * (including the cloud metadata address 169.254.169.254), unique-local, carrier-grade NAT,
 * multicast and reserved ranges never are.
 */
export function isAllowedWebhookAddress(ip: string, opts: { allowLoopback: boolean }): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (range === 'unicast') return true;
  return range === 'loopback' && opts.allowLoopback;
}
