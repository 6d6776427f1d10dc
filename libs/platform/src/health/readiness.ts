import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { withTimeout } from '../loops/timeouts';

/** A dependency the service cannot work without (database, Redis, bus). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'ok' | string>;
}

const CHECK_TIMEOUT_MS = 2000;

export async function runReadiness(checks: readonly ReadinessCheck[]): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        await withTimeout(c.check(), CHECK_TIMEOUT_MS, `timed out after ${CHECK_TIMEOUT_MS} ms`);
        return [c.name, 'ok'] as const;
      } catch (err) {
        return [c.name, err instanceof Error ? err.message : String(err)] as const;
      }
    }),
  );
  const report = Object.fromEntries(results);
  return { status: results.every(([, r]) => r === 'ok') ? 'ok' : 'unavailable', checks: report };
}

/**
 * Event-loop delay histogram resolution. The histogram is a timer that wakes the process every
 * period, busy or idle, and each wake-up of an idle Node process costs 0.1–0.2 ms of CPU on these
 * machines (the idle bench; prom-client's default of 10 ms cost about 4 ms/s a process, our earlier
 * 100 ms about 1 ms/s, most of an idle service's CPU). At 1 s a stall of a second or more is always
 * recorded and a shorter one in proportion to its length, which is what an alert on lag needs;
 * how busy the loop is comes from nodejs_eventloop_active_seconds_total, which costs no timer.
 */
const EVENT_LOOP_MONITORING_PRECISION_MS = 1_000;

/** One Prometheus registry per process, with Node's default metrics. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_PRECISION_MS });
  registerEventLoopActivity(registry);
  return registry;
}

/**
 * nodejs_eventloop_active_seconds_total: the time the event loop spent running callbacks rather
 * than waiting for I/O (Node's event-loop utilisation, read at each scrape; no timer). Its rate is
 * the fraction of one core the loop keeps busy: near 1 the process is saturated.
 */
function registerEventLoopActivity(registry: Registry): void {
  let counted = 0;
  new Counter({
    name: 'nodejs_eventloop_active_seconds_total',
    help: 'Time the event loop spent running callbacks rather than waiting (rate = event-loop utilisation, 0..1)',
    registers: [registry],
    collect() {
      const active = performance.eventLoopUtilization().active / 1000;
      if (active <= counted) return;
      this.inc(active - counted);
      counted = active;
    },
  });
}

/**
 * The ops endpoints of a service without a public HTTP API (ledger, payout, workers):
 * GET /healthz (the process is alive), /readyz (every dependency answers), /metrics.
 */
export function startOpsServer(opts: {
  port: number;
  /** Bind address (OPS_HOST); loopback when absent */
  host?: string;
  checks: readonly ReadinessCheck[];
  registry: Registry;
  isShuttingDown?: () => boolean;
}): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(type === 'application/json' ? JSON.stringify(body) : String(body));
    };
    if (req.method !== 'GET') return send(405, { status: 'method not allowed' });
    if (path === '/healthz') return send(200, { status: 'ok' });
    if (path === '/readyz') {
      if (opts.isShuttingDown?.()) return send(503, { status: 'shutting down', checks: {} });
      return void runReadiness(opts.checks).then((r) => send(r.status === 'ok' ? 200 : 503, r));
    }
    if (path === '/metrics') {
      // A collector that throws fails this scrape with a 500 naming it; it must never leave the scrape unanswered.
      return void opts.registry.metrics().then(
        (m) => send(200, m, opts.registry.contentType),
        (err: unknown) =>
          send(500, `metrics collection failed: ${err instanceof Error ? err.message : String(err)}\n`, 'text/plain'),
      );
    }
    return send(404, { status: 'not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve(server));
  });
}
