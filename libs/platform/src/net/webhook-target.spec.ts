import type { LookupAddress } from 'node:dns';
import { checkWebhookTarget, safeLookup, type WebhookTargetPolicy } from './webhook-target';

/** This spec's DNS: the names it sets and no others (a unit test reads no network). */
const mockZone = new Map<string, string[]>();
jest.mock('node:dns', () => ({
  lookup: (host: string, _options: object, callback: (err: Error | null, found: LookupAddress[]) => void) => {
    const found = mockZone.get(host.toLowerCase());
    if (!found) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    callback(
      null,
      found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  },
}));

/** What the API's check (checkWebhookTarget) and the connect-time lookup (safeLookup) each say of `host`. */
async function judge(host: string, policy: WebhookTargetPolicy): Promise<{ api: string; connect: string }> {
  const api = await checkWebhookTarget(`http://${host}:4000/cb`, policy).then(
    () => 'allowed',
    (err: Error) => err.message,
  );
  const connect = await new Promise<string>((resolve) =>
    safeLookup(policy)(host, {}, (err) => resolve(err ? `${err.message} (${err.code})` : 'allowed')),
  );
  return { api, connect };
}
const allowed = { api: 'allowed', connect: 'allowed' };
const refused = (host: string, address: string) => ({
  api: `${host} resolves to ${address}, a private or reserved address`,
  connect: `${host} resolves to ${address}, a private or reserved address (ETARGETREFUSED)`,
});

describe('webhook targets: WEBHOOK_ALLOW_PRIVATE_HOSTS opens private addresses to listed names only', () => {
  const listingE2e: WebhookTargetPolicy = { allowLoopback: false, allowPrivateHosts: ['e2e'] };
  beforeEach(() => mockZone.clear());

  it.each(['10.1.2.3', '172.16.0.9', '172.18.0.5', '192.168.1.20', 'fd12:3456::1'])(
    'a listed name resolving to %s is allowed, at the API and at connect time; any other name resolving there is refused',
    async (address) => {
      for (const host of ['e2e', 'other', 'sub.e2e', 'e2e.example', 'e2e2']) mockZone.set(host, [address]);
      expect(await judge('e2e', listingE2e)).toEqual(allowed);
      for (const host of ['other', 'sub.e2e', 'e2e.example', 'e2e2'])
        expect(await judge(host, listingE2e)).toEqual(refused(host, address));
      expect(await judge('e2e', { allowLoopback: true, allowPrivateHosts: [] })).toEqual(refused('e2e', address));
    },
  );

  it('the name is matched whatever its case', async () => {
    mockZone.set('e2e', ['172.18.0.5']);
    expect(await judge('E2E', listingE2e)).toEqual(allowed);
    expect(await judge('E2e', listingE2e)).toEqual(allowed);
  });

  it.each(['169.254.169.254', 'fd00:ec2::254', '127.0.0.1', '::1', 'fe80::1', '0.0.0.0', '224.0.0.1', '100.64.0.1'])(
    'a listed name resolving to %s is still refused (metadata, loopback, link-local, unspecified, multicast, CGNAT)',
    async (address) => {
      mockZone.set('e2e', [address]);
      expect(await judge('e2e', listingE2e)).toEqual(refused('e2e', address));
    },
  );

  it('a listed name is refused when any of its addresses is, and gets loopback only with WEBHOOK_ALLOW_LOOPBACK', async () => {
    mockZone.set('e2e', ['172.18.0.5', '169.254.169.254']);
    expect(await judge('e2e', listingE2e)).toEqual(refused('e2e', '169.254.169.254'));
    mockZone.set('e2e', ['172.18.0.5', '127.0.0.1']);
    expect(await judge('e2e', listingE2e)).toEqual(refused('e2e', '127.0.0.1'));
    expect(await judge('e2e', { ...listingE2e, allowLoopback: true })).toEqual(allowed);
  });

  it('an IP literal is never opened by the list, even when listed', async () => {
    await expect(
      checkWebhookTarget('http://10.0.0.5:4000/cb', { allowLoopback: false, allowPrivateHosts: ['10.0.0.5'] }),
    ).rejects.toThrow('10.0.0.5 is a private or reserved address');
  });

  it('listing a name does not open loopback for it (checked at the API and at connect time)', async () => {
    mockZone.set('localhost', ['127.0.0.1', '::1']);
    expect(await judge('localhost', { allowLoopback: false, allowPrivateHosts: ['localhost'] })).toEqual(
      refused('localhost', '127.0.0.1'),
    );
    expect(await judge('localhost', { allowLoopback: true, allowPrivateHosts: [] })).toEqual(allowed);
  });
});
