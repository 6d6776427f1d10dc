import dns, { type LookupAddress, type LookupOptions } from 'node:dns';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Host names a test makes up, each resolving to the addresses given (a compose service's private
 * address, say), as the callback checks (checkWebhookTarget, safeLookup) look names up through
 * node:dns; every other name resolves as before. Returns the undo: call it in afterAll, as the
 * module is shared by every test file a Jest worker runs.
 */
export function madeUpNames(names: Record<string, string[]>): () => void {
  const real = dns.lookup;
  const made = new Map(Object.entries(names));
  const lookup = (host: string, options: LookupOptions, callback: LookupCallback): void => {
    const addresses = made.get(host.toLowerCase());
    if (!addresses) return void real(host, options, callback);
    const found = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    process.nextTick(() => (options.all ? callback(null, found) : callback(null, found[0].address, found[0].family)));
  };
  Object.assign(dns, { lookup });
  return () => Object.assign(dns, { lookup: real });
}
