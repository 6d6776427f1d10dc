import { Gauge, type Registry } from 'prom-client';

/**
 * `pg_listen_up`: 1 while the process's LISTEN connection is in place, 0 while it is being
 * re-established (read at each scrape). While it is 0 the service works on its safety nets:
 * notifications are not heard, so transfers, payouts, outbox relays and callbacks wait for their
 * polls (seconds, not milliseconds). The service's log says `LISTEN connection lost; reconnecting`
 * at each failed attempt (throttled).
 */
export function pgListenMetric(registry: Registry, listener: { readonly listening: boolean }): void {
  new Gauge({
    name: 'pg_listen_up',
    help: "1 while this process's PostgreSQL LISTEN connection is in place; 0 while it reconnects (notifications unheard: work waits for the safety-net polls)",
    registers: [registry],
    collect() {
      this.set(listener.listening ? 1 : 0);
    },
  });
}
