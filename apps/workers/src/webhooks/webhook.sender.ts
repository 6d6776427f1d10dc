import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isAllowedWebhookAddress } from '@pay/domain';
import { safeLookup } from '@pay/platform';

export interface SendOptions {
  timeoutMs: number;
  /** Response bytes read at most (the rest is discarded unread) */
  maxResponseBytes: number;
  allowLoopback: boolean;
}

export interface SendResult {
  /** null: no HTTP answer (network error, timeout, refused target) */
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  retryAfter: string | undefined;
  latencyMs: number;
  /** The target resolved to an address we never send to: not worth retrying as is */
  targetRefused: boolean;
}

/**
 * One HTTP POST of a webhook. Connects only to allowed addresses (checked at connect time,
 * so DNS rebinding cannot steer it inside), never follows redirects, gives up after
 * `timeoutMs` in total, and reads at most `maxResponseBytes` of the answer.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, opts: SendOptions): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const refused = (error: string): SendResult => ({ statusCode: null, error, responseBody: null, retryAfter: undefined, latencyMs: elapsed(), targetRefused: true });
  if (isIP(host) && !isAllowedWebhookAddress(host, opts)) return Promise.resolve(refused(`${host} is a private or reserved address`));

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'latencyMs' | 'targetRefused'> & { targetRefused?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ targetRefused: false, ...result, latencyMs: elapsed() });
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: safeLookup({ allowLoopback: opts.allowLoopback }),
        agent: false,
      },
      (res: IncomingMessage) => {
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
            responseBody: Buffer.concat(chunks).toString('utf8'),
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
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: err.message, responseBody: null, retryAfter: undefined, targetRefused: err.code === 'ETARGETREFUSED' }),
    );
    req.end(body);
  });
}
