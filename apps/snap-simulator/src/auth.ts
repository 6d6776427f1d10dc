import { createHash, createHmac, createVerify, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SimulatorConfig } from './config';
import type { Store } from './store';

/** A refusal: HTTP status and case code; the service code comes from the route. */
export class SnapError extends Error {
  constructor(
    readonly http: number,
    readonly caseCode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const TOKEN_TTL_SECONDS = 900;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

/** X-TIMESTAMP: the format (400xx01) and the window around our clock (401xx00). */
export function checkTimestamp(value: string | undefined, windowMs: number, now: Date): void {
  if (!value) throw new SnapError(400, '02', 'Invalid Mandatory Field X-TIMESTAMP');
  if (!TIMESTAMP.test(value) || Number.isNaN(Date.parse(value)))
    throw new SnapError(400, '01', 'Invalid Field Format X-TIMESTAMP');
  if (Math.abs(Date.parse(value) - now.getTime()) > windowMs)
    throw new SnapError(401, '00', 'Unauthorized. X-TIMESTAMP outside the allowed window');
}

function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function rsaValid(publicKeyPem: string, text: string, signature: string): boolean {
  try {
    return createVerify('sha256').update(text, 'utf8').verify(publicKeyPem, signature, 'base64');
  } catch {
    return false;
  }
}

/** The B2B token request: SHA256withRSA over `X-CLIENT-KEY|X-TIMESTAMP`, as the headers were sent. */
export function verifyTokenRequest(
  config: SimulatorConfig,
  headers: Record<string, string | undefined>,
  now: Date,
): void {
  const clientKey = headers['x-client-key'];
  const signature = headers['x-signature'];
  if (!clientKey) throw new SnapError(400, '02', 'Invalid Mandatory Field X-CLIENT-KEY');
  if (!signature) throw new SnapError(400, '02', 'Invalid Mandatory Field X-SIGNATURE');
  checkTimestamp(headers['x-timestamp'], config.windowMs, now);
  if (clientKey !== config.client.id) throw new SnapError(401, '00', 'Unauthorized. Unknown client');
  if (!rsaValid(config.client.publicKeyPem, `${clientKey}|${headers['x-timestamp']}`, signature))
    throw new SnapError(401, '00', 'Unauthorized. Signature');
}

export async function issueToken(store: Store, clientId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await store.pool.query('INSERT INTO tokens (token, client_id, expires_at) VALUES ($1, $2, $3)', [
    token,
    clientId,
    new Date(now.getTime() + TOKEN_TTL_SECONDS * 1000),
  ]);
  return token;
}

/** Jakarta's calendar day: X-EXTERNAL-ID is unique per partner per day. */
function jakartaDay(now: Date): string {
  return new Date(now.getTime() + 7 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * Every check a transactional request meets, in this order: headers present (400xx02) and well
 * formed (400xx01), partner and channel, timestamp window, token (symmetric mode), the signature
 * over the raw bytes received (401xx00), then X-EXTERNAL-ID unique today (409xx00).
 */
export async function verifyTransaction(
  config: SimulatorConfig,
  store: Store,
  req: { method: string; url: string; headers: Record<string, string | undefined>; raw: Buffer },
  service: string,
  now: Date,
): Promise<{ externalId: string }> {
  const h = req.headers;
  const required = ['x-timestamp', 'x-signature', 'x-partner-id', 'x-external-id', 'channel-id'];
  if (config.client.mode === 'symmetric') required.push('authorization');
  for (const name of required)
    if (!h[name]) throw new SnapError(400, '02', `Invalid Mandatory Field ${name.toUpperCase()}`);
  if (!(h['content-type'] ?? '').startsWith('application/json'))
    throw new SnapError(400, '01', 'Invalid Field Format Content-Type');
  const externalId = h['x-external-id'] as string;
  if (!/^\d{1,36}$/.test(externalId)) throw new SnapError(400, '01', 'Invalid Field Format X-EXTERNAL-ID');
  if ((h['x-partner-id'] as string).length > 36) throw new SnapError(400, '01', 'Invalid Field Format X-PARTNER-ID');
  if (h['x-partner-id'] !== config.client.id) throw new SnapError(401, '00', 'Unauthorized. Unknown partner');
  if (h['channel-id'] !== config.client.channelId) throw new SnapError(401, '00', 'Unauthorized. Unknown channel');
  checkTimestamp(h['x-timestamp'], config.windowMs, now);

  const digest = sha256Hex(req.raw);
  const signature = h['x-signature'] as string;
  if (config.client.mode === 'symmetric') {
    const auth = h.authorization as string;
    if (!auth.startsWith('Bearer ')) throw new SnapError(401, '01', 'Invalid Token (B2B)');
    const token = auth.slice('Bearer '.length);
    const { rows } = await store.pool.query<{ client_id: string; expires_at: Date }>(
      'SELECT client_id, expires_at FROM tokens WHERE token = $1',
      [token],
    );
    if (rows.length === 0 || rows[0].client_id !== config.client.id || rows[0].expires_at <= now)
      throw new SnapError(401, '01', 'Invalid Token (B2B)');
    const expected = createHmac('sha512', config.client.secret)
      .update(`${req.method}:${req.url}:${token}:${digest}:${h['x-timestamp']}`, 'utf8')
      .digest();
    const given = Buffer.from(signature, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new SnapError(401, '00', 'Unauthorized. Signature');
  } else if (
    !rsaValid(config.client.publicKeyPem, `${req.method}:${req.url}:${digest}:${h['x-timestamp']}`, signature)
  ) {
    throw new SnapError(401, '00', 'Unauthorized. Signature');
  }

  const { rowCount } = await store.pool.query(
    `INSERT INTO external_ids (partner_id, day, external_id, service) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [h['x-partner-id'], jakartaDay(now), externalId, service],
  );
  if (rowCount === 0) throw new SnapError(409, '00', 'Conflict. X-EXTERNAL-ID already used today');
  return { externalId };
}
