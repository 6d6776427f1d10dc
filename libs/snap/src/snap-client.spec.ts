import { createHash, createHmac, createVerify, generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SnapClient, type SnapClientOptions } from './snap-client';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_PEM = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const SECRET = 'test-client-secret';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The provider's own check of the signature over the bytes it received */
  signatureValid: boolean;
}

type Handler = (seen: Seen, res: ServerResponse) => void;

/**
 * A provider in a few lines: it checks signatures with node:crypto on its own (not with the
 * client's code) over the exact bytes it received, and answers as each test says.
 */
async function provider(
  handler: Handler,
  refuseTokens = false,
): Promise<{ url: string; seen: Seen[]; tokens: number; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const state = { tokens: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const h = req.headers;
      const path = req.url ?? '';
      let signatureValid: boolean;
      if (path.endsWith('/access-token/b2b')) {
        state.tokens++;
        signatureValid = createVerify('RSA-SHA256')
          .update(`${h['x-client-key']}|${h['x-timestamp']}`)
          .verify(PUBLIC_PEM, String(h['x-signature']), 'base64');
      } else {
        const digest = createHash('sha256').update(body).digest('hex');
        const token = String(h.authorization ?? '').replace(/^Bearer /, '');
        signatureValid = h.authorization
          ? createHmac('sha512', SECRET)
              .update(`POST:${path}:${token}:${digest}:${h['x-timestamp']}`)
              .digest('base64') === h['x-signature']
          : createVerify('RSA-SHA256')
              .update(`POST:${path}:${digest}:${h['x-timestamp']}`)
              .verify(PUBLIC_PEM, String(h['x-signature']), 'base64');
      }
      const s = { path, headers: h, body, signatureValid };
      seen.push(s);
      if (path.endsWith('/access-token/b2b') && refuseTokens) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ responseCode: '4017300', responseMessage: 'Unauthorized. Signature' }));
        return;
      }
      if (path.endsWith('/access-token/b2b')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            responseCode: '2007300',
            responseMessage: 'Successful',
            accessToken: `token-${state.tokens}`,
            tokenType: 'Bearer',
            expiresIn: '900',
          }),
        );
        return;
      }
      handler(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/snap`,
    seen,
    get tokens() {
      return state.tokens;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const answer =
  (status: number, body: object): Handler =>
  (_s, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

function client(url: string, extra: Partial<SnapClientOptions> = {}): SnapClient {
  return new SnapClient({
    provider: 'test',
    baseUrl: url,
    clientId: 'CLIENT-1',
    clientSecret: SECRET,
    privateKeyPem: PRIVATE_PEM,
    channelId: '95221',
    responseTimeoutMs: 300,
    ...extra,
  });
}

const transfer = {
  partnerReferenceNo: 'PO-1',
  beneficiaryAccountName: 'BUDI SANTOSO',
  amount: { value: '1.00', currency: 'IDR' },
};

describe('SnapClient', () => {
  const closers: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  async function setUp(handler: Handler, extra: Partial<SnapClientOptions> = {}) {
    const p = await provider(handler);
    const c = client(p.url, extra);
    closers.push(
      () => c.close(),
      () => p.close(),
    );
    return { p, c };
  }

  it('signs the exact bytes it sends, with every header, under the provider prefix', async () => {
    const { p, c } = await setUp(
      answer(200, { responseCode: '2001800', responseMessage: 'Success', referenceNo: 'R1' }),
    );
    const result = await c.call('transferInterbank', transfer);
    expect(result).toMatchObject({
      kind: 'answer',
      httpStatus: 200,
      class: { kind: 'success' },
      body: { referenceNo: 'R1' },
    });
    const call = p.seen[1];
    expect(call.path).toBe('/snap/v1.0/transfer-interbank');
    expect(call.signatureValid).toBe(true);
    expect(call.body.toString()).toBe(JSON.stringify(transfer));
    expect(call.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer token-1',
      'x-partner-id': 'CLIENT-1',
      'channel-id': '95221',
    });
    expect(call.headers['x-timestamp']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+07:00$/);
    expect(call.headers['x-external-id']).toMatch(/^\d{32}$/);
    expect(result.kind === 'answer' && result.externalId).toBe(call.headers['x-external-id']);
    expect(p.seen[0].signatureValid).toBe(true);
  });

  it('fetches one token for 50 concurrent calls', async () => {
    const { p, c } = await setUp(answer(200, { responseCode: '2001600', responseMessage: 'Success' }));
    const results = await Promise.all(Array.from({ length: 50 }, () => c.call('accountInquiryExternal', {})));
    expect(results.every((r) => r.kind === 'answer')).toBe(true);
    expect(p.tokens).toBe(1);
    expect(new Set(p.seen.slice(1).map((s) => s.headers['x-external-id'])).size).toBe(50);
  });

  it('refreshes the token a minute before it expires', async () => {
    let now = Date.parse('2026-11-28T03:00:00Z');
    const { p, c } = await setUp(answer(200, { responseCode: '2001600', responseMessage: 'Success' }), {
      clock: () => new Date(now),
    });
    await c.call('accountInquiryExternal', {});
    now += 839_000;
    await c.call('accountInquiryExternal', {});
    expect(p.tokens).toBe(1);
    now += 2_000;
    await c.call('accountInquiryExternal', {});
    expect(p.tokens).toBe(2);
    expect(p.seen.at(-1)?.headers.authorization).toBe('Bearer token-2');
  });

  it('on 401xx01 refreshes once and resends with a new X-EXTERNAL-ID', async () => {
    let calls = 0;
    const { p, c } = await setUp((s, res) =>
      answer(
        ...((++calls === 1
          ? [401, { responseCode: '4011801', responseMessage: 'Invalid Token (B2B)' }]
          : [200, { responseCode: '2001800', responseMessage: 'Success' }]) as [number, object]),
      )(s, res),
    );
    const result = await c.call('transferInterbank', transfer);
    expect(result).toMatchObject({ kind: 'answer', code: { code: '2001800' } });
    expect(p.tokens).toBe(2);
    const sends = p.seen.filter((s) => s.path.endsWith('transfer-interbank'));
    expect(sends).toHaveLength(2);
    expect(sends[0].headers['x-external-id']).not.toBe(sends[1].headers['x-external-id']);
    expect(sends[1].headers.authorization).toBe('Bearer token-2');
    expect(sends[0].body.equals(sends[1].body)).toBe(true);
  });

  it('on 401xx01 twice gives up after one refresh; on 401xx00 sends once', async () => {
    const expired = await setUp(answer(401, { responseCode: '4011801', responseMessage: 'Invalid Token (B2B)' }));
    expect(await expired.c.call('transferInterbank', transfer)).toMatchObject({ class: { kind: 'auth_token' } });
    expect(expired.p.seen.filter((s) => s.path.endsWith('transfer-interbank'))).toHaveLength(2);

    const refused = await setUp(answer(401, { responseCode: '4011800', responseMessage: 'Unauthorized. Signature' }));
    expect(await refused.c.call('transferInterbank', transfer)).toMatchObject({ class: { kind: 'auth_fatal' } });
    expect(refused.p.seen.filter((s) => s.path.endsWith('transfer-interbank'))).toHaveLength(1);
    expect(refused.p.tokens).toBe(1);
  });

  it('an answer that never comes is unknown (timeout), not a failure', async () => {
    const { c } = await setUp(() => undefined);
    expect(await c.call('transferInterbank', transfer)).toMatchObject({ kind: 'unknown', reason: 'timeout' });
  });

  it('a connection reset after the request was sent is unknown (reset)', async () => {
    const { c } = await setUp((_s, res) => res.socket?.destroy());
    expect(await c.call('transferInterbank', transfer)).toMatchObject({ kind: 'unknown', reason: 'reset' });
  });

  it('nothing listening: not sent', async () => {
    const p = await provider(() => undefined);
    await p.close();
    const c = client(p.url);
    closers.push(() => c.close());
    expect(await c.call('transferInterbank', transfer)).toMatchObject({ kind: 'not_sent' });
  });

  it.each([
    [500, { responseCode: '5001801', responseMessage: 'Internal Server Error' }, 'server_error'],
    [504, { responseCode: '5041800', responseMessage: 'Timeout' }, 'server_error'],
    [502, 'Bad Gateway', 'server_error'],
    [200, { responseCode: '4041811', responseMessage: 'Invalid Account' }, 'status_mismatch'],
    [404, { responseCode: '4041811', responseMessage: 'Invalid Account' }, undefined],
    [200, '<html>maintenance</html>', 'unparseable'],
    [200, { responseMessage: 'no code' }, 'unparseable'],
  ])('HTTP %s with %j is unknown (%s)', async (status, body, reason) => {
    const { c } = await setUp((_s, res) => {
      res.writeHead(status);
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
    const result = await c.call('transferInterbank', transfer);
    if (reason === undefined) expect(result).toMatchObject({ kind: 'answer', class: { kind: 'final_failure' } });
    else expect(result).toMatchObject({ kind: 'unknown', reason });
  });

  it('202xx00 is an answer that says in progress', async () => {
    const { c } = await setUp(answer(202, { responseCode: '2021800', responseMessage: 'Request In Progress' }));
    expect(await c.call('transferInterbank', transfer)).toMatchObject({
      kind: 'answer',
      class: { kind: 'in_progress' },
    });
  });

  it('the asymmetric mode signs with RSA and sends no token', async () => {
    const { p, c } = await setUp(answer(200, { responseCode: '2001800', responseMessage: 'Success' }), {
      signatureMode: 'asymmetric',
      clientSecret: undefined,
    });
    await c.call('transferInterbank', transfer);
    expect(p.tokens).toBe(0);
    expect(p.seen).toHaveLength(1);
    expect(p.seen[0].headers.authorization).toBeUndefined();
    expect(p.seen[0].signatureValid).toBe(true);
  });

  it('hands over each attempt before it leaves, and reports every call', async () => {
    const attempts: string[] = [];
    const calls: string[] = [];
    const { p, c } = await setUp(answer(200, { responseCode: '2001800', responseMessage: 'Success' }), {
      onAttempt: async (a) => {
        // Persisting happens first: the provider has not seen this attempt yet.
        expect(p.seen.some((s) => s.headers['x-external-id'] === a.externalId)).toBe(false);
        attempts.push(a.externalId);
      },
      onCall: (r) => calls.push(`${r.service}:${r.responseCode}:${r.outcome}`),
    });
    await c.call('transferInterbank', transfer);
    expect(attempts).toEqual([p.seen[1].headers['x-external-id']]);
    expect(calls).toEqual(['transferInterbank:2001800:answer']);
  });

  it('reports refused credentials for readiness, and not a provider that cannot be reached', async () => {
    const refusing = await provider(() => undefined, true);
    const c = client(refusing.url);
    closers.push(
      () => c.close(),
      () => refusing.close(),
    );
    expect(await c.credentialsProblem()).toMatch(/refused our token request: 4017300 Unauthorized. Signature/);
    expect(await c.call('transferInterbank', transfer)).toMatchObject({ kind: 'not_sent' });

    const { c: fine } = await setUp(
      answer(401, { responseCode: '4011800', responseMessage: 'Unauthorized. Signature' }),
    );
    expect(await fine.credentialsProblem()).toBeNull();
    await fine.call('transferInterbank', transfer);
    expect(await fine.credentialsProblem()).toBe('4011800 Unauthorized. Signature');

    const gone = await provider(() => undefined);
    await gone.close();
    const unreachable = client(gone.url);
    closers.push(() => unreachable.close());
    expect(await unreachable.credentialsProblem()).toBeNull();
  });

  it('refuses the symmetric mode without a secret', () => {
    expect(() => client('http://127.0.0.1:1/snap', { clientSecret: undefined })).toThrow(/client secret/);
  });
});
