import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

/** The route label of a request no route matched: its path is the caller's to choose, never a label. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds: the API answers in milliseconds, a transfer waits for the ledger up to a few seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The request rate, errors and duration of every route, for dashboards and alerts:
 * `http_requests_total{method,route,status}` and `http_request_duration_seconds{method,route}`.
 * The route is the matched template (`/api/v1/disbursement/inquiry`), so the
 * series stay bounded whatever paths callers send; a request no route matched counts under
 * `unmatched`. Counted when the answer is sent (onResponse), refusals and errors included.
 * Each label set's child is kept, so a request costs two increments and no label hashing.
 */
export function registerRequestMetrics(fastify: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, matched route template and status code',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request received to its answer sent, by method and matched route template',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const counters = new Map<string, Counter.Internal>();
  const timers = new Map<string, Histogram.Internal<'method' | 'route'>>();
  fastify.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    const key = `${req.method} ${route}`;
    let timer = timers.get(key);
    if (!timer) timers.set(key, (timer = duration.labels({ method: req.method, route })));
    timer.observe(reply.elapsedTime / 1000);
    const countKey = `${key} ${status}`;
    let counter = counters.get(countKey);
    if (!counter)
      counters.set(countKey, (counter = requests.labels({ method: req.method, route, status: String(status) })));
    counter.inc();
    done();
  });
}
