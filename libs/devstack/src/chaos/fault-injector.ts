import type { KafkaBroker } from '../infra/kafka-broker';
import type { KafkaCluster } from '../infra/kafka-cluster';
import type { PrivatePostgres } from '../infra/private-postgres';
import type { PrivateRedis } from '../infra/private-redis';
import type { PrivateSentinel } from '../infra/private-sentinel';
import type { SilentRelay } from '../infra/silent-relay';
import { type LocalStack, SERVICES, type ServiceName } from '../stack/local-stack';
import { type BusProbe, CONSUMPTIONS } from './bus-probe';
import { sessionsByApplication, terminateSessions, writingTransactions } from './pg-sessions';

export type FaultKind =
  | 'kill'
  | 'pg-outage'
  | 'pg-terminate'
  | 'pg-failover'
  | 'redis-restart'
  | 'redis-failover'
  | 's3-restart'
  | 'broker-restart'
  | 'rebalance';

/** What the run takes away and how often; durations are [min, max] seconds. */
export interface FaultPlan {
  kills: number;
  pgOutages: number;
  pgOutageSeconds: [number, number];
  /** pg_terminate_backend of every session of the stack's database */
  pgTerminates: number;
  /**
   * The primary fenced (read-only, its sessions left open) and the standby promoted in its place,
   * the stack's address moved to it (needs ChaosInfra.failover); default 0
   */
  pgFailovers?: number;
  redisRestarts: number;
  /** A Sentinel failover of Redis (SENTINEL FAILOVER: the replica promoted; needs ChaosInfra.sentinel); default 0 */
  redisFailovers?: number;
  s3Restarts: number;
  s3OutageSeconds: [number, number];
  /** Which services the kills pick from; default all four */
  killServices?: ServiceName[];
  /** The Kafka broker stopped and started again (Kafka only: skipped on Redis Streams); default 0 */
  brokerRestarts?: number;
  /** Default 30-60 s */
  brokerOutageSeconds?: [number, number];
  /** Consumers scaled 1 -> 3 -> 1 (two extra ledger, payout and workers processes for a while); default 0 */
  rebalances?: number;
  /** How long the extra processes stay; default 10-20 s */
  rebalanceSeconds?: [number, number];
}

export const NO_FAULTS: FaultPlan = {
  kills: 0,
  pgOutages: 0,
  pgOutageSeconds: [30, 120],
  pgTerminates: 0,
  redisRestarts: 0,
  s3Restarts: 0,
  s3OutageSeconds: [5, 15],
};

/** The consumer services a rebalance scales out, and to how many processes each. */
const SCALED: Exclude<ServiceName, 'gateway'>[] = ['ledger', 'payout', 'workers'];
const SCALE_TO = 3;

/** The servers the services stand on, private to the run so they can be taken away. */
export interface ChaosInfra {
  /** The primary (a failover replaces it) */
  postgres: PrivatePostgres;
  /** The stack's database on that server (whose sessions pg-terminate cuts) */
  database: string;
  /** The one Redis server, unless Redis runs behind Sentinel */
  redis?: PrivateRedis;
  /** Redis as a primary, a replica and a Sentinel: the services' REDIS_URL is its redis+sentinel:// URL */
  sentinel?: PrivateSentinel;
  /** The run's own Kafka broker, or cluster of several, when the bus is Kafka (broker restarts need it) */
  kafka?: KafkaBroker | KafkaCluster;
  /**
   * For failovers: the stack reaches PostgreSQL through `relay` (the address a DNS name or a proxy
   * gives), and `standby` streams from the primary; `retired` holds the old primaries until cleanup.
   */
  failover?: { relay: SilentRelay; standby: PrivatePostgres; retired: PrivatePostgres[] };
}

export interface FaultEvent {
  kind: FaultKind;
  /** The service killed */
  service?: ServiceName;
  atMs: number;
  /** How long the server was away (outages, restarts); for a failover, how long writes were refused (fence to address moved) */
  seconds?: number;
  /** Sessions terminated (pg-terminate) */
  sessions?: number;
  /** Records the killed consumer held unacknowledged at the kill (> 0: it died mid-handler) */
  inFlight?: number;
  /** Extra consumer processes started (rebalance) */
  replicas?: number;
  /** Why the fault could not be carried out (a violation) */
  error?: string;
}

const KILLABLE: ServiceName[] = ['ledger', 'payout', 'workers', 'gateway'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Injects the plan's faults one at a time, spread over the workload, so a kill never overlaps
 * an outage and each fault's effect can be told apart in the logs. Between faults it brings back services that
 * exited on their own (the stack has recorded each as an unexpected exit, a violation) so the
 * rest of the run can still measure what is lost.
 */
export class FaultInjector {
  readonly events: FaultEvent[] = [];
  readonly revived: { service: ServiceName; atMs: number }[] = [];
  /** The job number at which each fault is due, once run() has planned them */
  private points: number[] | undefined;
  private begun = 0;
  /** Set when run() failed: the workload stops waiting for faults that will never come */
  private failure: unknown;

  constructor(
    private readonly stack: LocalStack,
    private readonly infra: ChaosInfra | undefined,
    private readonly plan: FaultPlan,
    private readonly random: () => number,
    private readonly started: number,
    private readonly log: (line: string) => void,
    /** Called while object storage is away (the run starts recon exports then) */
    private readonly onS3Down: () => void = () => undefined,
    /** Finds records a consumer holds, so kills land mid-handler */
    private readonly probe?: BusProbe,
  ) {
    const needsInfra = plan.pgOutages + plan.pgTerminates + (plan.pgFailovers ?? 0) + plan.redisRestarts > 0;
    if (needsInfra && !infra)
      throw new Error('PostgreSQL and Redis faults need a private PostgreSQL and Redis (ChaosInfra)');
    if ((plan.pgFailovers ?? 0) > 0 && !infra?.failover)
      throw new Error('PostgreSQL failovers need a standby and a relay (startChaosEnv with failover)');
    if (plan.redisRestarts > 0 && !infra?.redis)
      throw new Error('Redis restarts need the one Redis server (not Sentinel)');
    if ((plan.redisFailovers ?? 0) > 0 && !infra?.sentinel)
      throw new Error('Redis failovers need Redis behind Sentinel (startChaosEnv with redisSentinel)');
  }

  /** Faults of the plan this bus cannot have (broker restarts on Redis Streams): skipped. */
  get skipped(): FaultKind[] {
    return this.infra?.kafka ? [] : Array<FaultKind>(this.plan.brokerRestarts ?? 0).fill('broker-restart');
  }

  /**
   * Runs every fault at its point of the workload: the k-th of n is due when job number
   * points[k] is taken (a random point of the k-th of n equal slices, never in a slice's last
   * tenth). `taken()` says how many jobs have been taken; the workload asks `due(i)` before
   * running job i, which holds it until every fault due by then has started, so no fault is
   * left over when the work ends early. Resolves once `workDone()` after the last fault.
   */
  async run(jobs: number, taken: () => number, workDone: () => boolean): Promise<void> {
    const kinds = this.kinds();
    const points = kinds.map((_, k) => Math.floor(((k + 0.9 * this.random()) / kinds.length) * jobs));
    this.points = points;
    try {
      for (let k = 0; k < kinds.length; k++) {
        while (taken() <= points[k]) {
          await this.reviveExited();
          await sleep(50);
        }
        await this.reviveExited();
        this.begun++;
        await this.inject(kinds[k]);
      }
      // A service may still die of the last fault: keep looking until the work is done.
      while (!workDone()) {
        await this.reviveExited();
        await sleep(100);
      }
      await this.reviveExited();
    } catch (err) {
      this.failure = err;
      throw err;
    }
  }

  /** Resolves once every fault due at or before job i has started. */
  async due(i: number): Promise<void> {
    while (this.points === undefined || this.points.filter((p) => p < i).length > this.begun) {
      if (this.failure) throw this.failure;
      await sleep(20);
    }
  }

  /** Restarts every service that is down without the injector having killed it. */
  async reviveExited(): Promise<void> {
    const down = SERVICES.filter((s) => !this.stack.isRunning(s));
    for (const service of down) {
      this.log(`revive ${service}: it exited on its own`);
      this.revived.push({ service, atMs: this.now() });
    }
    await Promise.all(down.map((s) => this.startService(s)));
  }

  private kinds(): FaultKind[] {
    const p = this.plan;
    const kinds: FaultKind[] = [
      ...Array<FaultKind>(p.kills).fill('kill'),
      ...Array<FaultKind>(p.pgOutages).fill('pg-outage'),
      ...Array<FaultKind>(p.pgTerminates).fill('pg-terminate'),
      ...Array<FaultKind>(p.pgFailovers ?? 0).fill('pg-failover'),
      ...Array<FaultKind>(p.redisRestarts).fill('redis-restart'),
      ...Array<FaultKind>(p.redisFailovers ?? 0).fill('redis-failover'),
      ...Array<FaultKind>(p.s3Restarts).fill('s3-restart'),
      ...Array<FaultKind>(this.infra?.kafka ? (p.brokerRestarts ?? 0) : 0).fill('broker-restart'),
      ...Array<FaultKind>(p.rebalances ?? 0).fill('rebalance'),
    ];
    // Seeded Fisher-Yates, so a seed replays the same order.
    for (let i = kinds.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
    }
    return kinds;
  }

  private async inject(kind: FaultKind): Promise<void> {
    const event: FaultEvent = { kind, atMs: this.now() };
    this.events.push(event);
    const t0 = Date.now();
    const infra = this.infra as ChaosInfra;
    switch (kind) {
      case 'kill': {
        const running = (this.plan.killServices ?? KILLABLE).filter((s) => this.stack.isRunning(s));
        const service = running[Math.floor(this.random() * running.length)];
        event.service = service;
        event.inFlight = await this.holding(service);
        this.log(
          `kill -9 ${service}${event.inFlight === undefined ? '' : ` holding ${event.inFlight} unacknowledged records`}`,
        );
        await this.stack.kill(service);
        await sleep(200 + this.random() * 500);
        await this.startService(service);
        return;
      }
      case 'pg-terminate':
        event.sessions = await terminateSessions(infra.postgres.url('postgres'), infra.database);
        this.log(`pg_terminate_backend: ${event.sessions} sessions`);
        break;
      case 'pg-outage': {
        const seconds = this.between(this.plan.pgOutageSeconds);
        this.log(`PostgreSQL stopped for ${seconds.toFixed(0)} s`);
        await infra.postgres.stop();
        await sleep(seconds * 1000);
        await infra.postgres.start();
        break;
      }
      case 'pg-failover':
        await this.failover(event);
        break;
      case 'redis-restart':
        this.log('Redis restarted');
        await infra.redis?.stop('shutdown');
        await sleep(1000 + this.random() * 2000);
        await infra.redis?.start();
        break;
      case 'redis-failover':
        this.log('Redis failover: SENTINEL FAILOVER, the replica promoted');
        await infra.sentinel?.failover();
        break;
      case 'broker-restart': {
        const seconds = this.between(this.plan.brokerOutageSeconds ?? [30, 60]);
        const kafka = infra.kafka;
        if (kafka && 'nodes' in kafka) {
          this.log(`a Kafka node stopped for ${seconds.toFixed(0)} s (the other ${kafka.nodes.length - 1} carry on)`);
          this.log(`Kafka node ${await kafka.restart({ downMs: seconds * 1000 })} of ${kafka.nodes.length} back`);
        } else {
          this.log(`Kafka broker stopped for ${seconds.toFixed(0)} s`);
          await kafka?.restart({ downMs: seconds * 1000 });
        }
        break;
      }
      case 'rebalance': {
        const seconds = this.between(this.plan.rebalanceSeconds ?? [10, 20]);
        this.log(`scale out: ${SCALED.join(', ')} to ${SCALE_TO} processes each, for ${seconds.toFixed(0)} s`);
        const extras = SCALED.flatMap((s) =>
          Array.from({ length: SCALE_TO - 1 }, (_, i) => ({ service: s, n: i + 2 })),
        );
        event.replicas = extras.length;
        try {
          await Promise.all(extras.map((e) => this.stack.startReplica(e.service, e.n)));
          this.log('scaled out; traffic goes on');
          await sleep(seconds * 1000);
        } catch (err) {
          event.error = `scale-out failed: ${(err as Error).message.split('\n')[0]}`;
          this.log(event.error);
        } finally {
          await this.stack.stopReplicas();
          this.log('scaled in to 1 process each');
        }
        break;
      }
      case 's3-restart': {
        const seconds = this.between(this.plan.s3OutageSeconds);
        this.log(`S3 stopped for ${seconds.toFixed(0)} s`);
        await this.stack.s3.stop();
        this.onS3Down();
        await sleep(seconds * 1000);
        await this.stack.s3.restart();
        break;
      }
    }
    if (kind !== 'pg-terminate' && kind !== 'pg-failover') {
      event.seconds = Math.round((Date.now() - t0) / 100) / 10;
      this.log(`${kind} over after ${event.seconds} s`);
    }
    // Give services a moment to notice the server is back (or to fail on it) before looking.
    await sleep(2000);
  }

  /**
   * A failover that loses nothing, behind the stack's one address: the primary is fenced
   * (read-only for every session; the open ones stay open), the transactions that had written
   * finish, the standby replays everything and is promoted, and the address moves to it. The
   * services' connections on the old server must all be gone 30 s later (decision 0015): a
   * session left there is a violation, named by its application. A new standby of the new primary
   * is made for the next failover.
   */
  private async failover(event: FaultEvent): Promise<void> {
    const infra = this.infra as ChaosInfra;
    const failover = infra.failover as NonNullable<ChaosInfra['failover']>;
    const old = infra.postgres;
    const oldUrl = old.url('postgres');
    this.log(
      'PostgreSQL failover: the primary fenced (read-only, sessions left open), the standby promoted, the address moved to it',
    );
    await old.setReadOnly();
    const fenced = Date.now();
    for (
      const deadline = Date.now() + 10_000;
      Date.now() < deadline && (await writingTransactions(oldUrl, infra.database)) > 0;
    )
      await sleep(50);
    await failover.standby.caughtUpWith(old);
    await failover.standby.promote();
    failover.relay.redirect(failover.standby.url(infra.database));
    infra.postgres = failover.standby;
    failover.retired.push(old);
    event.seconds = Math.round((Date.now() - fenced) / 100) / 10;
    this.log(`writes were refused for ${event.seconds} s (fence to address moved)`);
    failover.standby = await infra.postgres.standby();
    let left = '';
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(500))
      if (!(left = await sessionsByApplication(oldUrl, infra.database))) break;
    if (left) event.error = `sessions still on the old primary 30 s after the failover: ${left}`;
    else this.log('no session left on the old primary');
  }

  /**
   * For a consumer service: waits (up to 5 s) until its process holds records it has not
   * acknowledged, so the kill lands while a handler runs; returns how many (undefined: not a
   * consumer, or no probe). The gateway is killed whenever its turn comes.
   */
  private async holding(service: ServiceName): Promise<number | undefined> {
    const consumption = CONSUMPTIONS.find((c) => c.service === service);
    if (!consumption || !this.probe) return undefined;
    const pid = this.stack.pid(service);
    const deadline = Date.now() + 5_000;
    for (;;) {
      const n = await this.probe.unacknowledged(consumption, pid).catch(() => 0);
      if (n > 0 || Date.now() > deadline) return n;
      await sleep(20);
    }
  }

  /** Starts a service, retrying a failed start (a stuck one is killed first, so two never share a port). */
  private async startService(service: ServiceName): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.stack.startService(service);
      } catch (err) {
        await this.stack.kill(service);
        if (attempt >= 10) throw err;
        this.log(`start ${service} failed (attempt ${attempt}); retrying`);
        await sleep(2000);
      }
    }
  }

  private between([min, max]: [number, number]): number {
    return min + this.random() * (max - min);
  }

  private now(): number {
    return Date.now() - this.started;
  }
}
