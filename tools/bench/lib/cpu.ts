import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { SERVICES, type LocalStack } from '@pay/devstack';

/** CPU time (user + system, ms) used so far by each part of the system on this machine. */
export type CpuSample = Record<string, number>;

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** The fields of /proc/<pid>/stat (or /proc/<pid>/task/<tid>/stat) after the command name (which may hold spaces): [0] is state, [1] ppid. */
function statFields(pid: number, tid?: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}${tid ? `/task/${tid}` : ''}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // gone between listing and reading
  }
}

export function cpuMsOf(pid: number, tid?: string): number {
  const fields = statFields(pid, tid);
  // utime is the 12th field after the name, stime the 13th.
  return fields ? (Number(fields[11]) + Number(fields[12])) * TICK_MS : 0;
}

/**
 * CPU ms of a JVM's JIT compilers so far: HotSpot's "C1 CompilerThread0" and "C2 CompilerThread0"
 * threads (/proc shows 15 characters of a thread's name). With two cores the JVM runs one of each
 * (CICompilerCount=2), and those two never exit, so the sum only grows. With more cores it may
 * start more and stop the extra ones when idle: a stopped one's time is then missed.
 */
export function jitCompilerMsOf(pid: number): number {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0; // the process is gone
  }
  let ms = 0;
  for (const tid of tids) {
    try {
      if (/^C[12] CompilerThre/.test(readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8'))) ms += cpuMsOf(pid, tid);
    } catch {
      // exited meanwhile
    }
  }
  return ms;
}

/** CPU ms of a process's children that have exited and been reaped (cutime + cstime). */
function reapedChildrenMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) * TICK_MS : 0;
}

/**
 * Every Postgres process's CPU: the live ones, and through the postmaster's reaped-children time
 * the ones that exited (a parallel query's workers, which live for one statement, closed backends).
 */
function postgresMs(): number {
  const pids = pidsNamed('postgres');
  const postmasters = pids.filter((pid) => !pids.includes(Number(statFields(pid)?.[1])));
  return pids.reduce((n, pid) => n + cpuMsOf(pid), 0) + postmasters.reduce((n, pid) => n + reapedChildrenMs(pid), 0);
}

function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/**
 * Where the CPU goes: each service process, every Postgres process (those that exited too:
 * backends closed with pools, parallel query workers), Redis and the load generator.
 */
export function sampleCpu(stack: LocalStack): CpuSample {
  const sample: CpuSample = {};
  for (const service of SERVICES) sample[service] = cpuMsOf(stack.pid(service) ?? -1);
  sample.postgres = postgresMs();
  sample.redis = pidsNamed('redis-server').reduce((n, pid) => n + cpuMsOf(pid), 0);
  sample.loadGenerator = cpuMsOf(process.pid);
  return sample;
}

/** Parts a sample shows that are not the system's own cost, or are already counted in another part. */
const NOT_IN_TOTAL = new Set(['loadGenerator', 'kafkaBrokerJit']);

/** CPU ms per unit of work between two samples, per part and in total. */
export function cpuPerUnit(before: CpuSample, after: CpuSample, units: number): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const key of Object.keys(after)) {
    const ms = (after[key] - (before[key] ?? 0)) / units;
    out[key] = Math.round(ms * 100) / 100;
    if (!NOT_IN_TOTAL.has(key)) total += ms;
  }
  out.totalWithoutLoadGenerator = Math.round(total * 100) / 100;
  return out;
}

/** CPU ms used so far by each backend (pid) of one database. */
export type BackendSample = Map<number, number>;

/**
 * The CPU of one database's own Postgres backends (the services' connections, its autovacuum
 * workers), apart from the machine's other Postgres work (other databases, other benches):
 * `pids` lists them (pg_stat_activity where datname is the database). A backend that exits
 * between two samples is missed; the services' pools keep theirs.
 */
export function sampleBackends(pids: number[]): BackendSample {
  return new Map(pids.map((pid) => [pid, cpuMsOf(pid)]));
}

/** CPU ms the backends in `after` used since `before` (a backend new since then: all of its time). */
export function backendsMs(before: BackendSample, after: BackendSample): number {
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}

/**
 * The query listing a database's backends for sampleBackends (the asking connection left out),
 * each with its role for backendsMsByRole: the service that connected (its application_name),
 * `listen` for a LISTEN connection (PgListener names it `<service>:listen`; one of a URL without a
 * name still shows its LISTEN until its first heartbeat), else the backend's kind (autovacuum
 * worker, an unnamed client).
 */
export const DATABASE_BACKENDS_SQL = `SELECT pid,
  CASE WHEN application_name LIKE '%:listen' OR query LIKE 'LISTEN %' THEN 'listen' WHEN application_name <> '' THEN application_name
       WHEN backend_type = 'client backend' THEN 'unnamed' ELSE backend_type END AS role
  FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;

/** backendsMs split by role (`roles`: pid -> role, as DATABASE_BACKENDS_SQL names them; unknown pids: 'unnamed'). */
export function backendsMsByRole(
  before: BackendSample,
  after: BackendSample,
  roles: ReadonlyMap<number, string>,
): Record<string, number> {
  const byRole: Record<string, number> = {};
  for (const [pid, t] of after) {
    const role = roles.get(pid) ?? 'unnamed';
    byRole[role] = (byRole[role] ?? 0) + t - (before.get(pid) ?? 0);
  }
  return byRole;
}

/**
 * What the machine's cores allow a unit of work (a transfer) that costs `allMs` of CPU in all
 * (every process, the load generator included: here they share the cores): the rate that fills
 * them; and at `floorMs`, the part spent outside the services' own processes (the database's work
 * as the services use it, and the load generator's), the rate the cores would allow if the
 * services and the bus cost nothing, as a ratio to `ceilingPerSecond` (pgbench -N). Beside them
 * the target rate and the CPU per unit it leaves.
 */
export function coresAllow(
  allMs: number,
  floorMs: number,
  targetPerSecond: number,
  ceilingPerSecond: number,
  cores = cpus().length,
): Record<string, string | number> {
  const msPerSecond = cores * 1000;
  const round2 = (n: number) => Math.round(n * 100) / 100;
  return {
    cpuMsAll: round2(allMs),
    atThisCostPerSecond: Math.round(msPerSecond / allMs),
    postgresAndLoadMs: round2(floorMs),
    servicesFreePerSecond: Math.round(msPerSecond / floorMs),
    servicesFreeRatioToPgbench: (msPerSecond / floorMs / ceilingPerSecond).toFixed(3),
    targetPerSecond: Math.round(targetPerSecond),
    targetBudgetMs: round2(msPerSecond / targetPerSecond),
  };
}
