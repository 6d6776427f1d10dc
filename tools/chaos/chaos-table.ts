import type { ChaosReport } from '@pay/devstack';

/** One row of counters for console.table (the JSON line after it has the details). */
export function reportRow(r: ChaosReport): Record<string, string | number> {
  const away = (kind: string) => r.faults.filter((f) => f.kind === kind).map((f) => `${Math.round(f.seconds ?? 0)}s`);
  const pgOutages = away('pg-outage');
  const fiveXx = Object.entries(r.http.byStatus).filter(([status]) => Number(status) >= 500);
  return {
    seed: r.seed,
    transfersAccepted: r.transfersAccepted,
    transfersRefused: r.transfersRefused,
    payinsPaid: r.payinsPaid,
    reconReady: `${r.recon.downloaded}/${r.recon.requested}`,
    kills: r.kills.length,
    pgOutages: pgOutages.length ? `${pgOutages.length} (${pgOutages.join(', ')})` : 0,
    // Seconds of refused writes, to the tenth: a failover takes well under one.
    pgFailovers:
      r.faults
        .filter((f) => f.kind === 'pg-failover')
        .map((f) => `${f.seconds ?? 0}s`)
        .join(', ') || 0,
    pgTerminated: r.faults.filter((f) => f.kind === 'pg-terminate').reduce((s, f) => s + (f.sessions ?? 0), 0),
    redisRestarts: r.faults.filter((f) => f.kind === 'redis-restart').length,
    redisFailovers: away('redis-failover').join(', ') || 0,
    s3Outages: away('s3-restart').join(', ') || 0,
    brokerOutages: away('broker-restart').join(', ') || 0,
    rebalances: r.faults.filter((f) => f.kind === 'rebalance').length,
    killsMidHandler: r.kills.filter((k) => (k.inFlight ?? 0) > 0).length,
    backlog: r.backlog.reduce((s, b) => s + b.records, 0),
    deadLetters: r.deadLetters.length,
    unexpectedExits: r.unexpectedExits.length,
    http503: r.http.byStatus['503'] ?? 0,
    http5xxNot503: r.http.serverErrorTotal,
    http5xx: fiveXx.map(([s, n]) => `${s}:${n}`).join(' ') || 0,
    auditBreaches: r.audit.breaches,
    violations: r.violations.length,
    seconds: Math.round(r.seconds),
  };
}
