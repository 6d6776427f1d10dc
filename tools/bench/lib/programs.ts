/**
 * The programs `npm run bench -- <name>` runs: the suites (suites/<name>.bench.ts, each appends
 * its run to tmp/bench/<name>.jsonl) and the seed programs (seeds/<name>.ts, which measure
 * nothing). What each measures and against what: tools/bench/README.md.
 */
export interface BenchProgram {
  name: string;
  /** Its file under tools/bench, without the extension */
  file: string;
  summary: string;
  args: string;
}

const suite = (name: string, summary: string, args: string): BenchProgram => ({
  name,
  file: `suites/${name}.bench`,
  summary,
  args,
});

export const SUITES: readonly BenchProgram[] = [
  suite(
    'ledger',
    'ledger commands/s in-process and through each bus, one ledger process; ceiling pgbench -N; --against <commit>: this build over that one, interleaved (target 0.9x)',
    '[commands=20000] [merchants=50] [concurrency=32] [warm-up commands=5000] [--against <commit>] [--rounds 3]',
  ),
  suite(
    'transfer',
    'disbursements accepted/s and end to end to the webhook, CPU per transfer; target 0.15x pgbench -N',
    '[transfersPerStep=400] [merchants=20] [concurrency list=4,8,16] [warm-up transfers=2000, 8000 on Kafka, 0 for none] [--history]',
  ),
  suite(
    'webhook',
    'webhook callbacks/s through the workers process, attempt latency, CPU per callback',
    '[deliveries=2000] [concurrency=20]',
  ),
  suite(
    'callback-fairness',
    "one merchant's callbacks stuck on a tarpit, another's steady: its callback p99 with and without (target <= 2x)",
    '[window seconds=10] [windows=8] [steady callbacks/s=20] [stuck callbacks per window=60]',
  ),
  suite(
    'payin',
    'QRIS pay-ins over HTTP (generate + sandbox pay) until the ledger recorded them, then settled',
    '[payins=2000] [merchants=20] [concurrency=16]',
  ),
  suite(
    'recon',
    "a busy day's recon export through the workers into S3Proxy; against psql's COPY of the same rows",
    '[payins=1000000]',
  ),
  suite(
    'verify',
    "the ledger's full audit over N events; target 1,000,000 events/s",
    '[events=1000000] [merchants=100]',
  ),
  suite(
    'balance',
    'GET balance through the gateway against a bare node:http server doing the same SELECT; target 0.6x',
    '[seconds=10] [concurrency=32] [warm-up seconds=10] [rounds=3] [--history]',
  ),
  suite(
    'interleaved',
    "two builds' gateways interleaved on one GET: requests/s and CPU per request, this over the other",
    '<other checkout, built> [path=/api/v1/payin/balance] [rounds=10] [slice seconds=3] [concurrency=32] [warm-up seconds=10]',
  ),
  suite(
    'flood',
    "one merchant floods, another reads steadily: its p99 under the flood (target <= 2x idle), the flooder's 429s",
    '[seconds of each phase=20] [flood connections=64] [steady rps=20] [flood rps=max]',
  ),
  suite(
    'rail',
    'transfers accepted/s and paid/s on the SNAP rail (the simulator) against the sandbox rail, alternating; the SNAP client CPU per call (target >= 0.8x)',
    '[transfers per round=300] [concurrency=8] [rounds=2] [client calls=2000]',
  ),
  suite(
    'batch',
    'a batch of payouts from submission to every row final, rows accepted/s; against as many single inquiry + transfer pairs in the same run',
    '[rows=1000] [concurrency=8] [rounds=2]',
  ),
  suite(
    'signin',
    "a merchant user's, an unknown and an operator's email at dashboard sign-in: median time difference (target < 0.5 ms)",
    '[rounds=400] [warm-up rounds=30]',
  ),
  suite(
    'signin-flood',
    'a page, a dashboard API call and a callback URL lookup under an anonymous sign-in flood: p99 (target <= 250 ms)',
    '[seconds of each kind of phase=20] [loops=150] [probe rps=10]',
  ),
  suite(
    'idle',
    'the idle stack: CPU ms per second per service (target: services <= 15), Postgres and Redis traffic',
    '[seconds=30] [rounds=2]',
  ),
  suite(
    'idle-history',
    'the idle stack on an empty database and on the history: CPU, statements running, tables read',
    '[seconds=30] [warmup=5]',
  ),
  suite(
    'lists',
    'history list pages at a million rows, over HTTP and as the statement alone; target p95 20 ms',
    '[rows=1000000] [requests=200]',
  ),
  suite(
    'dashboard',
    'dashboard and console pages cold-loaded in Chromium against a static floor; targets 1 s p95, 300 KB gzip',
    '[rounds=5]',
  ),
  suite(
    'plans',
    'the plan of every hot query on the history; Seq Scans of big tables flagged',
    '[databaseUrl] [--keep] [--verbose]',
  ),
];

export const SEEDS: readonly BenchProgram[] = [
  {
    name: 'keep-history',
    file: 'seeds/keep-history',
    summary: 'loads the history once into a database kept for BENCH_HISTORY_DB=<name> (10-17 min)',
    args: '<name> [benchMerchants=20]',
  },
];

export function findProgram(name: string | undefined): BenchProgram | undefined {
  return [...SUITES, ...SEEDS].find((p) => p.name === name);
}

/** The list `npm run bench` prints without a known name. */
export function usage(): string {
  const width = Math.max(...[...SUITES, ...SEEDS].map((p) => p.name.length));
  const line = (p: BenchProgram) => `  ${p.name.padEnd(width)}  ${p.summary}\n  ${' '.repeat(width)}  ${p.args}`;
  return [
    'usage: npm run bench -- <suite> [args...]   (after npm run build)',
    '',
    'suites (each run appends a line to tmp/bench/<suite>.jsonl; npm run bench:compare -- <suite> compares two):',
    ...SUITES.map(line),
    '',
    'seed programs:',
    ...SEEDS.map(line),
    '',
    'What each measures, its ceiling and how to compare: tools/bench/README.md',
  ].join('\n');
}
