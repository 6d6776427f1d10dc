import { checkWebhookTarget, safeLookup, WebhookTargetRefused } from './webhook-target';

const lookupOf = (host: string, policy: Parameters<typeof safeLookup>[0]) =>
  new Promise<string>((resolve, reject) =>
    safeLookup(policy)(host, {}, (err, address) => (err ? reject(err) : resolve(String(address)))),
  );

// The private half (a listed name resolving to 172.x) is proven end to end by the container
// stage: the journeys' receiver is the compose service `e2e` (tools/containers/compose-test.sh).
describe('webhook targets: WEBHOOK_ALLOW_PRIVATE_HOSTS opens private addresses to listed names only', () => {
  it('an IP literal is never opened by the list, even when listed', async () => {
    await expect(
      checkWebhookTarget('http://10.0.0.5:4000/cb', { allowLoopback: false, allowPrivateHosts: ['10.0.0.5'] }),
    ).rejects.toBeInstanceOf(WebhookTargetRefused);
  });

  it('listing a name does not open loopback for it (checked at the API and at connect time)', async () => {
    const policy = { allowLoopback: false, allowPrivateHosts: ['localhost'] };
    await expect(checkWebhookTarget('http://localhost:4000/cb', policy)).rejects.toThrow(
      /localhost resolves to .*, a private or reserved address/,
    );
    await expect(lookupOf('localhost', policy)).rejects.toMatchObject({ code: 'ETARGETREFUSED' });
    await expect(lookupOf('localhost', { allowLoopback: true })).resolves.toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
