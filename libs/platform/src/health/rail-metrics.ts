import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { throttledWarn, type WarnLogger } from '../logging/throttled-warn';
import { scrapeRead } from './scrape-read';

/** One call to a bank's API, as the rail reports it (libs/snap's SnapCallRecord). */
export interface RailCall {
  provider: string;
  service: string;
  durationMs: number;
  responseCode: string | null;
  /** answer | unknown | not_sent */
  outcome: string;
}

/**
 * Per provider and service: `rail_calls_total{provider,service,code,outcome}` (the response code,
 * or none when no answer came), `rail_call_duration_seconds`, and `rail_unknown_outcomes_total`
 * (a transfer whose outcome was not known after a call: asked again by status). Status polls are
 * `rail_calls_total{service="transferStatus"}`.
 */
export function railMetrics(registry: Registry): {
  onCall: (call: RailCall) => void;
  onUnknown: (reference: string, reason: string) => void;
} {
  const calls = new Counter({
    name: 'rail_calls_total',
    help: "Calls to the bank's API, by provider, service, response code (none: no answer) and outcome (answer, unknown, not_sent)",
    labelNames: ['provider', 'service', 'code', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'rail_call_duration_seconds',
    help: "Time of calls to the bank's API, by provider and service, token fetch included",
    labelNames: ['provider', 'service'],
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const unknown = new Counter({
    name: 'rail_unknown_outcomes_total',
    help: 'Transfers whose outcome was not known after a call (a timeout, a reset, a 5xx, an unreadable answer): resolved by status inquiry',
    labelNames: ['reason'],
    registers: [registry],
  });
  return {
    onCall: (c) => {
      calls.inc({ provider: c.provider, service: c.service, code: c.responseCode ?? 'none', outcome: c.outcome });
      duration.observe({ provider: c.provider, service: c.service }, c.durationMs / 1000);
    },
    onUnknown: (_reference, reason) => unknown.inc({ reason: reason.split(/[: ]/)[0] || 'unknown' }),
  };
}

/** Disbursements sent to the bank that no answer has yet come back for. */
export interface UnknownPayouts {
  count: number;
  oldestAgeSeconds: number;
}

/**
 * `disbursements_unknown` and `disbursements_unknown_oldest_age_seconds`: pending disbursements sent
 * to the bank at least once with no answer to any attempt (timeouts, resets, 5xx): the bank may or
 * may not have paid. The payout loop asks their status with backoff; one that stays unknown for long
 * is a bank outage or a stuck inquiry (alert PaymentsPayoutUnknown; runbook "A payout stuck UNKNOWN").
 */
export function unknownPayoutsMetric(
  registry: Registry,
  source: { unknownSummary(): Promise<UnknownPayouts> },
  options: { logger: WarnLogger; cacheMs?: number },
): void {
  const update = scrapeRead(
    () => source.unknownSummary(),
    (u) => {
      count.set(u.count);
      oldest.set(u.oldestAgeSeconds);
    },
    {
      logger: options.logger,
      warning: 'payout metrics: could not read the unknown disbursements; keeping the last values',
      cacheMs: options.cacheMs,
    },
  );
  const count = new Gauge({
    name: 'disbursements_unknown',
    help: 'Pending disbursements sent to the bank with no answer to any attempt yet (outcome UNKNOWN)',
    registers: [registry],
    collect: update,
  });
  const oldest = new Gauge({
    name: 'disbursements_unknown_oldest_age_seconds',
    help: 'Seconds since the first attempt of the oldest UNKNOWN disbursement (0 when none)',
    registers: [registry],
    collect: update,
  });
}

/**
 * `rail_source_balance_idr{provider}`: our source account's available balance as the bank last told it
 * (SNAP 11), asked in the background at most every `refreshMs` so a scrape never waits for the bank;
 * absent until the first answer, and the last answer kept while the bank does not give one.
 */
export function sourceBalanceMetric(
  registry: Registry,
  source: { sourceBalance(): Promise<bigint | null> },
  options: { logger: WarnLogger; provider: string; refreshMs?: number },
): void {
  const refreshMs = options.refreshMs ?? 60_000;
  const warn = throttledWarn(options.logger, "payout metrics: could not read the source account's balance at the bank");
  let askedAt = 0;
  let asking = false;
  const gauge = new Gauge({
    name: 'rail_source_balance_idr',
    help: "Our source account's available balance at the bank (Rupiah), as it last answered a balance inquiry",
    // A label, so the series is absent (not 0) until the bank's first answer.
    labelNames: ['provider'],
    registers: [registry],
    collect: () => {
      if (asking || Date.now() - askedAt < refreshMs) return;
      asking = true;
      askedAt = Date.now();
      source
        .sourceBalance()
        .then((sen) => {
          if (sen !== null) gauge.set({ provider: options.provider }, Number(sen) / 100);
        }, warn)
        .finally(() => (asking = false));
    },
  });
}
