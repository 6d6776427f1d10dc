import { createHash, createHmac, createSign, randomInt } from 'node:crypto';

/**
 * A SNAP caller in a few lines of node:crypto, for the simulator's own tests: deliberately not
 * libs/snap (a bug shared by the client and the simulator would pass every test).
 */
export interface Caller {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  privateKeyPem: string;
  channelId: string;
}

export function jakartaNow(at = new Date()): string {
  return `${new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(0, 19)}+07:00`;
}

export function externalId(): string {
  return `${Date.now()}${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e9)).padStart(9, '0')}`;
}

export async function token(c: Caller, overrides: { signature?: string; timestamp?: string } = {}) {
  const timestamp = overrides.timestamp ?? jakartaNow();
  const signature =
    overrides.signature ?? createSign('sha256').update(`${c.clientId}|${timestamp}`).sign(c.privateKeyPem, 'base64');
  const res = await fetch(`${c.baseUrl}/v1.0/access-token/b2b`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-timestamp': timestamp,
      'x-client-key': c.clientId,
      'x-signature': signature,
    },
    body: JSON.stringify({ grantType: 'client_credentials', additionalInfo: {} }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

export interface Sent {
  status: number;
  body: Record<string, unknown>;
  externalId: string;
}

/** A symmetric-mode call; `tamper` breaks one thing on purpose. */
export async function call(
  c: Caller,
  accessToken: string,
  path: string,
  body: object,
  tamper: { drop?: string; signature?: string; timestamp?: string; externalId?: string; token?: string } = {},
): Promise<Sent> {
  const raw = JSON.stringify(body);
  const url = new URL(c.baseUrl);
  const fullPath = `${url.pathname}${path}`;
  const timestamp = tamper.timestamp ?? jakartaNow();
  const tok = tamper.token ?? accessToken;
  const digest = createHash('sha256').update(raw).digest('hex');
  const signature =
    tamper.signature ??
    createHmac('sha512', c.clientSecret).update(`POST:${fullPath}:${tok}:${digest}:${timestamp}`).digest('base64');
  const id = tamper.externalId ?? externalId();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${tok}`,
    'x-timestamp': timestamp,
    'x-signature': signature,
    'x-partner-id': c.clientId,
    'x-external-id': id,
    'channel-id': c.channelId,
  };
  if (tamper.drop) delete headers[tamper.drop];
  const res = await fetch(`${url.origin}${fullPath}`, { method: 'POST', headers, body: raw });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, externalId: id };
}
