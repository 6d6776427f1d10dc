import type { FaultPlan } from '@pay/testing';

export interface ChaosArgs {
  transfers: number;
  payins: number;
  merchants: number;
  seed: number;
  reconExports: number;
  concurrency: number;
  appendfsync: 'everysec' | 'always';
  faults: FaultPlan;
}

const USAGE = `usage: chaos.js [transfers=10000] [payins=2000] [kills=20] [merchants=50] [seed]
  --pg-outages N            PostgreSQL stopped N times (default 3)
  --pg-outage-seconds A-B   each for A to B seconds (default 30-120)
  --pg-terminate N          pg_terminate_backend of all the stack's sessions N times (default 10)
  --redis-restarts N        Redis shut down and started again N times (default 1)
  --redis-appendfsync P     everysec (default, as docker-compose) or always
  --s3-restarts N           the S3 server stopped and started again N times (default 1)
  --s3-outage-seconds A-B   each for A to B seconds (default 5-15)
  --recon-exports N         recon exports spread over the workload (default 20)
  --concurrency N           merchant requests in flight (default 12)`;

/** Positional counts as before, then flags for what is taken away besides the processes. */
export function parseChaosArgs(argv: string[]): ChaosArgs {
  const flags = new Map<string, string>();
  const positional: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--help' || argv[i] === '-h') throw new Error(USAGE);
    if (argv[i].startsWith('--')) {
      const [name, inline] = argv[i].slice(2).split('=', 2);
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value\n${USAGE}`);
      flags.set(name, value);
    } else positional.push(count(argv[i], `argument ${positional.length + 1}`));
  }
  const known = ['pg-outages', 'pg-outage-seconds', 'pg-terminate', 'redis-restarts', 'redis-appendfsync', 's3-restarts', 's3-outage-seconds', 'recon-exports', 'concurrency'];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown flag --${name}\n${USAGE}`);
  const [transfers = 10_000, payins = 2_000, kills = 20, merchants = 50, seed = Date.now() % 1_000_000] = positional;
  const num = (name: string, fallback: number) => (flags.has(name) ? count(flags.get(name) as string, `--${name}`) : fallback);
  const appendfsync = flags.get('redis-appendfsync') ?? 'everysec';
  if (appendfsync !== 'everysec' && appendfsync !== 'always') throw new Error(`--redis-appendfsync must be everysec or always, not ${appendfsync}`);
  return {
    transfers,
    payins,
    merchants,
    seed,
    reconExports: num('recon-exports', 20),
    concurrency: num('concurrency', 12),
    appendfsync,
    faults: {
      kills,
      pgOutages: num('pg-outages', 3),
      pgOutageSeconds: range(flags.get('pg-outage-seconds') ?? '30-120', '--pg-outage-seconds'),
      pgTerminates: num('pg-terminate', 10),
      redisRestarts: num('redis-restarts', 1),
      s3Restarts: num('s3-restarts', 1),
      s3OutageSeconds: range(flags.get('s3-outage-seconds') ?? '5-15', '--s3-outage-seconds'),
    },
  };
}

function count(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} must be a whole number, not ${value}\n${USAGE}`);
  return n;
}

function range(value: string, what: string): [number, number] {
  const [min, max = min] = value.split('-').map((v) => count(v, what));
  if (max < min) throw new Error(`${what}: ${value} is not a range A-B with A <= B`);
  return [min, max];
}
