import { type FaultPlan, SERVICES, type ServiceName } from '@pay/devstack';

export interface ChaosArgs {
  transfers: number;
  payins: number;
  merchants: number;
  seed: number;
  reconExports: number;
  concurrency: number;
  appendfsync: 'everysec' | 'always';
  transport: 'redis-streams' | 'kafka';
  /** Kafka nodes of the run's cluster (1: one broker) */
  kafkaNodes: number;
  faults: FaultPlan;
}

const USAGE = `usage: chaos.js [transfers=10000] [payins=2000] [kills=20] [merchants=50] [seed]
  --pg-outages N            PostgreSQL stopped N times (default 3)
  --pg-outage-seconds A-B   each for A to B seconds (default 30-120)
  --pg-terminate N          pg_terminate_backend of all the stack's sessions N times (default 10)
  --pg-failovers N          the primary fenced (read-only, sessions left open) and a standby promoted
                            behind the stack's one address, N times (default 1)
  --redis-restarts N        Redis shut down and started again N times (default 1; 0 with --redis-failovers)
  --redis-failovers N       Redis run as a primary, a replica and a Sentinel (REDIS_URL redis+sentinel://),
                            failed over N times (SENTINEL FAILOVER; default 0)
  --redis-appendfsync P     everysec (default, as docker-compose) or always
  --s3-restarts N           the S3 server stopped and started again N times (default 1)
  --s3-outage-seconds A-B   each for A to B seconds (default 5-15)
  --recon-exports N         recon exports spread over the workload (default 20)
  --concurrency N           merchant requests in flight (default 12)
  --bus B                   redis-streams (default) or kafka (a broker of the run's own)
  --kafka-nodes N           a Kafka cluster of N nodes, every topic replicated N times, min.insync.replicas
                            N-1 (default 1; kafka only); a broker restart then stops one node, in turn
  --broker-restarts N       the Kafka broker stopped and started again N times (default 2 on kafka; kafka only)
  --broker-outage-seconds A-B  each for A to B seconds (default 30-60)
  --rebalances N            ledger, payout and workers scaled 1 -> 3 -> 1 processes N times (default 2)
  --rebalance-seconds A-B   the extra processes stay A to B seconds (default 10-20)
  --kill-services LIST      the services kills pick from (default gateway,ledger,payout,workers)`;

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
  const known = [
    'pg-outages',
    'pg-outage-seconds',
    'pg-terminate',
    'pg-failovers',
    'redis-restarts',
    'redis-failovers',
    'redis-appendfsync',
    's3-restarts',
    's3-outage-seconds',
    'recon-exports',
    'concurrency',
    'bus',
    'kafka-nodes',
    'broker-restarts',
    'broker-outage-seconds',
    'rebalances',
    'rebalance-seconds',
    'kill-services',
  ];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`unknown flag --${name}\n${USAGE}`);
  const [transfers = 10_000, payins = 2_000, kills = 20, merchants = 50, seed = Date.now() % 1_000_000] = positional;
  const num = (name: string, fallback: number) =>
    flags.has(name) ? count(flags.get(name) as string, `--${name}`) : fallback;
  const appendfsync = flags.get('redis-appendfsync') ?? 'everysec';
  if (appendfsync !== 'everysec' && appendfsync !== 'always')
    throw new Error(`--redis-appendfsync must be everysec or always, not ${appendfsync}`);
  const transport = flags.get('bus') ?? 'redis-streams';
  if (transport !== 'redis-streams' && transport !== 'kafka')
    throw new Error(`--bus must be redis-streams or kafka, not ${transport}`);
  const brokerRestarts = num('broker-restarts', transport === 'kafka' ? 2 : 0);
  if (brokerRestarts > 0 && transport !== 'kafka')
    throw new Error('--broker-restarts needs --bus kafka (Redis Streams has no broker to restart)');
  const kafkaNodes = num('kafka-nodes', 1);
  if (kafkaNodes !== 1 && transport !== 'kafka') throw new Error('--kafka-nodes needs --bus kafka');
  if (kafkaNodes < 1 || kafkaNodes > 5) throw new Error('--kafka-nodes must be 1 to 5');
  const redisFailovers = num('redis-failovers', 0);
  const redisRestarts = num('redis-restarts', redisFailovers > 0 ? 0 : 1);
  if (redisFailovers > 0 && redisRestarts > 0)
    throw new Error('--redis-restarts needs the one Redis server: with --redis-failovers Redis runs behind Sentinel');
  const killServices = (flags.get('kill-services') ?? 'gateway,ledger,payout,workers').split(',') as ServiceName[];
  const unknown = killServices.filter((s) => !SERVICES.includes(s));
  if (unknown.length || !killServices.length)
    throw new Error(`--kill-services: unknown service ${unknown.join(', ')} (gateway, ledger, payout, workers)`);
  return {
    transfers,
    payins,
    merchants,
    seed,
    reconExports: num('recon-exports', 20),
    concurrency: num('concurrency', 12),
    appendfsync,
    transport,
    kafkaNodes,
    faults: {
      kills,
      pgOutages: num('pg-outages', 3),
      pgOutageSeconds: range(flags.get('pg-outage-seconds') ?? '30-120', '--pg-outage-seconds'),
      pgTerminates: num('pg-terminate', 10),
      pgFailovers: num('pg-failovers', 1),
      redisRestarts,
      redisFailovers,
      s3Restarts: num('s3-restarts', 1),
      s3OutageSeconds: range(flags.get('s3-outage-seconds') ?? '5-15', '--s3-outage-seconds'),
      killServices,
      brokerRestarts,
      brokerOutageSeconds: range(flags.get('broker-outage-seconds') ?? '30-60', '--broker-outage-seconds'),
      rebalances: num('rebalances', 2),
      rebalanceSeconds: range(flags.get('rebalance-seconds') ?? '10-20', '--rebalance-seconds'),
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
