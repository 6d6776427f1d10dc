import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isAllowedWebhookAddress } from '@pay/domain';

export class WebhookTargetRefused extends Error {
  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(`${host} ${reason}`);
    this.name = 'WebhookTargetRefused';
  }
}

/**
 * Where callbacks may go beyond public addresses: loopback (WEBHOOK_ALLOW_LOOPBACK) and, for the
 * host names listed only, private and unique-local addresses (WEBHOOK_ALLOW_PRIVATE_HOSTS). Both
 * are for tests and local stacks; production refuses them at start-up.
 */
export interface WebhookTargetPolicy {
  allowLoopback: boolean;
  /** Lower-case host names (never IP literals) whose addresses may be private; empty: none */
  allowPrivateHosts: readonly string[];
}

/** The address rules for a connection to `host` under `policy`. */
function addressRules(host: string, policy: WebhookTargetPolicy) {
  return {
    allowLoopback: policy.allowLoopback,
    allowPrivate: !isIP(host) && policy.allowPrivateHosts.includes(host.toLowerCase()),
  };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves the host and refuses the connection when any
 * address is loopback (unless allowed), private, link-local/metadata or reserved. Checking the
 * address actually connected to (not an earlier resolution) defeats DNS rebinding.
 */
export function safeLookup(policy: WebhookTargetPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    // Per host name looked up: a private address is allowed only for a listed name, whatever
    // other host the same request or agent reaches.
    const rules = addressRules(hostname, policy);
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !isAllowedWebhookAddress(a.address, rules));
      if (refused) {
        const error = new WebhookTargetRefused(
          hostname,
          `resolves to ${refused.address}, a private or reserved address`,
        ) as NodeJS.ErrnoException;
        error.code = 'ETARGETREFUSED';
        return callback(error, []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * Checks a notifyUrl when a transfer is accepted: an IP literal must be allowed; a host name
 * that resolves must resolve only to allowed addresses. A name that does not resolve now is
 * let through (DNS may be down for a moment); delivery checks again at connect time.
 */
export async function checkWebhookTarget(url: string, policy: WebhookTargetPolicy): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const rules = addressRules(host, policy);
  if (isIP(host)) {
    if (!isAllowedWebhookAddress(host, rules)) throw new WebhookTargetRefused(host, 'is a private or reserved address');
    return;
  }
  const addresses = await new Promise<LookupAddress[] | null>((resolve) =>
    dnsLookup(host, { all: true }, (err, found) => resolve(err ? null : found)),
  );
  const refused = addresses?.find((a) => !isAllowedWebhookAddress(a.address, rules));
  if (refused) throw new WebhookTargetRefused(host, `resolves to ${refused.address}, a private or reserved address`);
}
