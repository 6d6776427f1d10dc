import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isAllowedWebhookAddress } from '@pay/domain';
import { safeLookup, type WebhookTargetPolicy } from '@pay/platform';

export interface SendOptions extends WebhookTargetPolicy {
  /** The whole attempt: connection, request, the answer read */
  timeoutMs: number;
  /** The connection (name lookup, TCP, and TLS for https) made within this long, or given up */
  connectTimeoutMs: number;
  /** Once connected (or a kept-alive connection taken), the answer's status line and headers within this long */
  firstByteTimeoutMs: number;
  /** Response bytes read at most (the rest is discarded unread) */
  maxResponseBytes: number;
}

export interface SendResult {
  /** null: no HTTP answer (network error, timeout, refused target) */
  statusCode: number | null;
  error: string | null;
  /** The answer's first bytes as received (at most maxResponseBytes), whatever they are */
  responseBody: Buffer | null;
  retryAfter: string | undefined;
  latencyMs: number;
  /** The target resolved to an address we never send to: not worth retrying as is */
  targetRefused: boolean;
}

/**
 * An idle kept-alive connection is closed after this long: below the 5 s most servers keep one
 * (Node's default), so we seldom send on a connection the merchant is closing.
 */
const IDLE_SOCKET_MS = 4000;

/**
 * Connections are kept alive and reused per merchant host (a busy merchant's callbacks do not
 * each pay a TCP and TLS handshake). One pool per target policy: a connection is checked when
 * it is made (safeLookup), so one made under a looser policy must never serve a stricter one.
 */
const agents = new Map<string, HttpAgent>();
function agentFor(protocol: string, policy: WebhookTargetPolicy): HttpAgent {
  const key = `${protocol} ${policy.allowLoopback} ${policy.allowPrivateHosts.join(',')}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
    agents.set(key, (agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options)));
  }
  return agent;
}

/**
 * One HTTP POST of a webhook. Connects only to allowed addresses (checked at connect time,
 * so DNS rebinding cannot steer it inside), never follows redirects, gives up when the connection
 * is not made within `connectTimeoutMs`, when the answer has not begun `firstByteTimeoutMs` after
 * it, and after `timeoutMs` in total, and reads at most `maxResponseBytes` of the answer. So a
 * receiver that never accepts or never answers holds an attempt slot for seconds, not the whole
 * timeout (decision 0024: each merchant's share of the slots is capped too). A kept-alive
 * connection the receiver closed just as it was reused (reset, or closed before any answer) is
 * tried once more on a new connection: the receiver had not read the request.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<SendResult> {
  const first = await post(url, body, headers, opts);
  const {
    staleSocket: _stale,
    startedAt: _started,
    ...result
  } = first.staleSocket ? await post(url, body, headers, opts, first.startedAt) : first;
  return result;
}

function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: SendOptions,
  startedAt = process.hrtime.bigint(),
): Promise<SendResult & { staleSocket?: boolean; startedAt: bigint }> {
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const refused = (error: string) => ({
    statusCode: null,
    error,
    responseBody: null,
    retryAfter: undefined,
    latencyMs: elapsed(),
    targetRefused: true,
    startedAt,
  });
  if (isIP(host) && !isAllowedWebhookAddress(host, { allowLoopback: opts.allowLoopback }))
    return Promise.resolve(refused(`${host} is a private or reserved address`));

  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    let stepTimer: NodeJS.Timeout | undefined;
    const finish = (
      result: Omit<SendResult, 'latencyMs' | 'targetRefused'> & { targetRefused?: boolean; staleSocket?: boolean },
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(stepTimer);
      resolve({ targetRefused: false, ...result, latencyMs: elapsed(), startedAt });
    };
    /** The current step (connecting, then waiting for the answer to begin) must end within `ms`. */
    const step = (ms: number, error: string) => {
      clearTimeout(stepTimer);
      if (!settled) stepTimer = setTimeout(() => req.destroy(new Error(error)), ms);
    };
    const awaitAnswer = () => step(opts.firstByteTimeoutMs, `no answer within ${opts.firstByteTimeoutMs} ms`);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: safeLookup(opts),
        agent: agentFor(target.protocol, opts),
      },
      (res: IncomingMessage) => {
        answered = true;
        clearTimeout(stepTimer);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= opts.maxResponseBytes) return;
          chunks.push(chunk.subarray(0, opts.maxResponseBytes - size));
          size += chunk.length;
          if (size >= opts.maxResponseBytes) res.destroy();
        });
        const done = () =>
          finish({
            statusCode: res.statusCode ?? null,
            error: null,
            responseBody: Buffer.concat(chunks),
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined,
          });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on('socket', (socket) => {
      if (!socket.connecting) return awaitAnswer(); // a kept-alive connection
      step(opts.connectTimeoutMs, `no connection within ${opts.connectTimeoutMs} ms`);
      socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', awaitAnswer);
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        statusCode: null,
        error: err.message,
        responseBody: null,
        retryAfter: undefined,
        targetRefused: err.code === 'ETARGETREFUSED',
        staleSocket: req.reusedSocket && !answered && (err.code === 'ECONNRESET' || err.code === 'EPIPE'),
      }),
    );
    req.end(body);
  });
}
