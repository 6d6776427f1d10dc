import { Agent, request } from 'node:http';
import { percentile } from './report';

/** What a closed-loop HTTP load measured. */
export interface Load {
  rps: number;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** Every answered request's latency, ms, sorted. */
  latencies: number[];
}

/**
 * `concurrency` clients on keep-alive connections, each sending GET `url` again as soon as its
 * answer is in, for `seconds`: the 200s per second and their latencies; any other answer is an error.
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  concurrency: number,
): Promise<Load> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t = process.hrtime.bigint();
      const req = request(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: Math.round(latencies.length / seconds),
    requests: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors,
    latencies,
  };
}

/**
 * POSTs `body` as JSON on `agent`'s keep-alive connections and reads the JSON answer: node:http,
 * not fetch, whose client costs the load generator several times more CPU a request, taken
 * from the same cores as the system it measures.
 */
export function postJson<T>(
  url: string,
  headers: Record<string, string>,
  body: object,
  agent: Agent,
): Promise<{ status: number; body: T }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
