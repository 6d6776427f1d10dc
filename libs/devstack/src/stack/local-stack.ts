import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '@pay/platform';
import { merchantContract, opsContract, registerContract, repoRoot } from '@pay/testing';
import { S3Proxy } from '../s3/s3-proxy';
import { SnapSimulator } from '../snap/snap-simulator';
import { freePort } from './free-port';
import { tail } from './log-tail';
import type { S3Server } from '../s3/s3-server';

export type ServiceName = 'gateway' | 'ledger' | 'payout' | 'workers';
export const SERVICES: readonly ServiceName[] = ['gateway', 'ledger', 'payout', 'workers'];

export interface StackOptions {
  databaseUrl: string;
  redisUrl: string;
  /** Redis Streams keys of this stack's bus (the BullMQ queues use it too, on either bus) */
  busKeyPrefix: string;
  /** The bus the services talk over; absent: Redis Streams */
  bus?: StackBus;
  /** Ports (the gateway's: its public port); 0 or absent picks a free one */
  ports?: Partial<Record<ServiceName, number>>;
  /** The gateway's internal port (/internal, /ops, /metrics); 0 or absent picks a free one */
  gatewayInternalPort?: number;
  logDir: string;
  /** Extra settings for every service */
  env?: Record<string, string>;
  /** Extra node flags for every service (e.g. --cpu-prof, which NODE_OPTIONS does not accept) */
  nodeArgs?: string[];
  /**
   * A running S3 server the stack uses and leaves running on stop (the end-to-end run's S3Proxy,
   * see testS3); absent: the stack starts an S3Proxy of its own (random credentials, signatures
   * checked) and stops it on stop.
   */
  s3?: S3Server;
  /** Port of the S3Proxy started with the stack; 0 or absent picks a free one */
  s3Port?: number;
  /** Where that S3Proxy keeps its files, kept on stop; absent: a temporary folder removed on stop */
  s3Directory?: string;
  /**
   * The bank rail: `snap` (default) starts a SNAP provider simulator of its own (apps/snap-simulator)
   * and points the gateway and payout at it, and makes it the QRIS acquirer too (QRIS_ACQUIRER=snap:
   * codes generated and payments notified by it); `sandbox` is the in-process simulator, with codes of our own. With `snapBaseUrl`
   * set in `env` (SNAP_BASE_URL), the given provider and keys are used as they are.
   */
  rail?: 'snap' | 'sandbox';
  /** The simulator's timings: in-progress outcomes resolve after delayMs; an answer that never comes holds hangMs */
  snapSimulator?: { delayMs?: number; hangMs?: number };
}

/** Kafka needs a broker with the topics already there (KafkaBroker creates them, as kafka-init does). */
export type StackBus = { transport: 'redis-streams' } | { transport: 'kafka'; brokers: string };

/** A service process that ended without the launcher asking it to (kill or stop). */
export interface UnexpectedExit {
  service: ServiceName;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  at: Date;
  /** Why, from its own log (see exitReason) */
  reason: string;
}

/**
 * The four services as separate OS processes (the built dist/ entry points), each with its own
 * log file, the way the local runner and the end-to-end suite run them.
 * A service that exits on its own is recorded in `unexpectedExits` and left down: restarting it
 * silently would hide the crash from whoever runs the stack.
 */
export class LocalStack {
  private readonly procs = new Map<ServiceName, ChildProcess>();
  /** Extra processes of a service (scale-out), by `<service>-<n>`, each on its own ops port */
  private readonly replicas = new Map<string, ChildProcess>();
  /** Children the launcher itself ended (kill, stop): their exit is not a crash. */
  private readonly ended = new WeakSet<ChildProcess>();
  readonly unexpectedExits: UnexpectedExit[] = [];
  private readonly root = repoRoot();
  private unregisterContract: () => void = () => undefined;

  private constructor(
    private readonly opts: StackOptions,
    readonly ports: Record<ServiceName, number>,
    readonly gatewayInternalPort: number,
    readonly s3: S3Server,
    /** The SNAP provider simulator the stack started (null on the sandbox rail or a provider given in env) */
    readonly snap: SnapSimulator | null,
  ) {}

  static async start(opts: StackOptions): Promise<LocalStack> {
    const ports = {} as Record<ServiceName, number>;
    for (const s of SERVICES) ports[s] = opts.ports?.[s] || (await freePort());
    mkdirSync(opts.logDir, { recursive: true });
    // A shared server a previous suite left stopped (a failed fault test) is brought back first.
    if (opts.s3 && !opts.s3.running) await opts.s3.restart();
    const internalPort = opts.gatewayInternalPort || (await freePort());
    const snap =
      (opts.rail ?? 'snap') === 'snap' && !opts.env?.SNAP_BASE_URL
        ? await SnapSimulator.start({
            databaseUrl: opts.databaseUrl,
            notifyUrl: `http://127.0.0.1:${internalPort}/snap/v1.0/qr/qr-mpm-notify`,
            delayMs: opts.snapSimulator?.delayMs ?? 1_000,
            hangMs: opts.snapSimulator?.hangMs ?? 3_000,
            dir: join(opts.logDir, 'snap-simulator'),
          })
        : null;
    const stack = new LocalStack(
      opts,
      ports,
      internalPort,
      opts.s3 ?? (await S3Proxy.start({ dir: opts.s3Directory, port: opts.s3Port })),
      snap,
    );
    // Its merchant API's answers are checked against docs/openapi.json, its internal port's (ops, acquirer) against
    // docs/ops-openapi.json, wherever the checking fetch is installed (the e2e set-up).
    const unregister = [
      registerContract(stack.gatewayUrl, merchantContract(stack.root)),
      registerContract(stack.internalUrl, opsContract(stack.root)),
    ];
    stack.unregisterContract = () => unregister.forEach((undo) => undo());
    try {
      for (const s of SERVICES) await stack.startService(s);
    } catch (err) {
      await stack.stop();
      throw err;
    }
    return stack;
  }

  /** The Redis and key prefix the services' bus uses (where its dead letters are). */
  get bus(): { redisUrl: string; keyPrefix: string } {
    return { redisUrl: this.opts.redisUrl, keyPrefix: this.opts.busKeyPrefix };
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.ports.gateway}`;
  }

  /** The gateway's internal port: the acquirer's notifications, the ops API and Bull Board, its metrics */
  get internalUrl(): string {
    return `http://127.0.0.1:${this.gatewayInternalPort}`;
  }

  opsUrl(service: ServiceName): string {
    return `http://127.0.0.1:${this.ports[service]}`;
  }

  /** True while the service's process has not exited (outage tests assert nobody crashed). */
  isRunning(service: ServiceName): boolean {
    const child = this.procs.get(service);
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** OS process id of a running service (for measurements such as peak memory). */
  pid(service: ServiceName): number | undefined {
    return this.procs.get(service)?.pid;
  }

  logFile(service: ServiceName): string {
    return join(this.opts.logDir, `${service}.log`);
  }

  envFor(service: ServiceName): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      DATABASE_URL: this.opts.databaseUrl,
      DATABASE_POOL_SIZE: '10',
      REDIS_URL: this.opts.redisUrl,
      ...this.busEnv(),
      BUS_KEY_PREFIX: this.opts.busKeyPrefix,
      QUEUE_PREFIX: `${this.opts.busKeyPrefix}bull`,
      // Local receivers (tests, the demo) listen on 127.0.0.1.
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      ...(service === 'gateway'
        ? {
            GATEWAY_PORT: String(this.ports.gateway),
            GATEWAY_HOST: '127.0.0.1',
            GATEWAY_INTERNAL_PORT: String(this.gatewayInternalPort),
            GATEWAY_INTERNAL_HOST: '127.0.0.1',
          }
        : { OPS_PORT: String(this.ports[service]), OPS_HOST: '127.0.0.1' }),
      ...this.s3.env,
      ...this.railEnv(),
      ...this.opts.env,
    };
  }

  /** The simulator as a bank: not live (sandbox money may go over it), and quick to answer and to be asked again. */
  private railEnv(): Record<string, string> {
    if ((this.opts.rail ?? 'snap') === 'sandbox') return { RAIL_PROVIDER: 'sandbox' };
    if (!this.snap) return { RAIL_PROVIDER: 'snap' };
    return {
      RAIL_PROVIDER: 'snap',
      RAIL_SIMULATOR: 'true',
      ...this.snap.env(),
      ...this.snap.acquirerEnv(),
      SNAP_TIMEOUT_MS: '2000',
      SNAP_STATUS_POLL_MS: '500',
      SNAP_NOT_FOUND_WINDOW_MS: '10000',
    };
  }

  private busEnv(): Record<string, string> {
    const bus = this.opts.bus ?? { transport: 'redis-streams' };
    if (bus.transport === 'redis-streams') return { BUS_TRANSPORT: 'redis-streams' };
    // A killed service's partitions move on after 10 s (the Redis lease's default), not production's 30 s.
    // The client id gets the service and host name appended (busConfigFromEnv).
    return {
      BUS_TRANSPORT: 'kafka',
      KAFKA_BROKERS: bus.brokers,
      KAFKA_CLIENT_ID: 'payments',
      KAFKA_SESSION_TIMEOUT_MS: '10000',
    };
  }

  async startService(service: ServiceName): Promise<void> {
    const child = this.spawnService(service, this.envFor(service), this.logFile(service));
    this.procs.set(service, child);
    await this.waitReady(service, child);
  }

  /**
   * Starts the n-th extra process of a consumer service (n >= 2) beside the first, on its own
   * ops port with its own log (`<service>-<n>.log`): the group rebalances over both.
   */
  async startReplica(service: Exclude<ServiceName, 'gateway'>, n: number): Promise<void> {
    const name = `${service}-${n}`;
    const port = await freePort();
    const child = this.spawnService(
      service,
      { ...this.envFor(service), OPS_PORT: String(port) },
      join(this.opts.logDir, `${name}.log`),
    );
    this.replicas.set(name, child);
    // Several start at once on a loaded machine: more time than a single restart gets.
    await this.waitReady(service, child, `http://127.0.0.1:${port}/readyz`, 90_000);
  }

  /** Stops every extra process the way a scale-in does (SIGTERM: each leaves its group cleanly). */
  async stopReplicas(): Promise<void> {
    const children = [...this.replicas.values()];
    this.replicas.clear();
    await Promise.all(children.map((child) => this.terminate(child)));
  }

  private spawnService(service: ServiceName, env: Record<string, string>, logFile: string): ChildProcess {
    const logFrom = existsSync(logFile) ? statSync(logFile).size : 0;
    const log = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(
      process.execPath,
      [
        ...SERVICE_NODE_FLAGS[service],
        ...(this.opts.nodeArgs ?? []),
        join(this.root, 'dist', 'apps', service, 'src', 'main.js'),
      ],
      {
        cwd: this.root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // Both streams into one file: neither may end it (the other would then write after its end,
    // an error that fails whoever runs the stack); it ends once the child's output has drained.
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once('close', () => log.end());
    // 'close' comes after the child's output has drained, so the tail holds its last words.
    child.once('close', (code, signal) => {
      if (this.ended.has(child)) return;
      this.unexpectedExits.push({
        service,
        pid: child.pid,
        code,
        signal,
        at: new Date(),
        reason: exitReason(logFile, logFrom),
      });
    });
    return child;
  }

  /** Kills a service the hard way (SIGKILL): no shutdown hook runs, nothing is acknowledged. */
  async kill(service: ServiceName): Promise<void> {
    const child = this.procs.get(service);
    if (!child || !this.isRunning(service)) return;
    this.ended.add(child);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.procs.delete(service);
  }

  /**
   * Stops one service as Kubernetes does: SIGTERM, then SIGKILL once `graceMs` has passed. Its exit
   * code (null when it had to be killed) and how long it took.
   */
  async terminateService(service: ServiceName, graceMs = 30_000): Promise<{ code: number | null; ms: number }> {
    const child = this.procs.get(service);
    if (!child || !this.isRunning(service)) throw new Error(`${service} is not running`);
    const started = Date.now();
    const code = await this.terminate(child, graceMs);
    this.procs.delete(service);
    return { code, ms: Date.now() - started };
  }

  async stop(): Promise<void> {
    this.unregisterContract();
    await this.stopReplicas();
    await Promise.all(
      [...this.procs.entries()].map(async ([name, child]) => {
        await this.terminate(child);
        this.procs.delete(name);
      }),
    );
    if (!this.opts.s3) await (this.opts.s3Directory ? this.s3.stop() : this.s3.close());
    await this.snap?.stop();
  }

  /** SIGTERM, SIGKILL after `graceMs`; never counted as an unexpected exit. Its exit code (null if killed). */
  private async terminate(child: ChildProcess, graceMs = 10_000): Promise<number | null> {
    this.ended.add(child);
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }

  private async waitReady(
    service: ServiceName,
    child: ChildProcess,
    url = `${service === 'gateway' ? this.gatewayUrl : this.opsUrl(service)}/readyz`,
    timeoutMs = 30_000,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${service} exited with code ${child.exitCode ?? child.signalCode} before it was ready; see ${this.logFile(service)}:\n${tail(this.logFile(service))}`,
        );
      }
      try {
        const res = await fetch(url);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `${service} was not ready within ${timeoutMs} ms; see ${this.logFile(service)}:\n${tail(this.logFile(service))}`,
    );
  }
}

/**
 * Why a process ended, from what it wrote to its log (from byte `from`): the error after Node's
 * crash banner if there is one, else its last fatal line, else the last error line, else its last line.
 */
function exitReason(file: string, from: number): string {
  const lines = readFileSync(file).subarray(from).toString('utf8').split('\n').filter(Boolean);
  const isError = (l: string) => /^\s*(\w*Error|error)\b.*:|"level":(50|60|"error"|"fatal")/.test(l);
  const crash = lines.findLastIndex((l) =>
    /throw er; \/\/ Unhandled|^Uncaught|uncaughtException|unhandledRejection/.test(l),
  );
  // A service that decided to exit says why at fatal; error lines logged while it shut down come after it.
  const fatal = lines.findLast((l) => /"level":(60|"fatal")/.test(l));
  const reason =
    (crash >= 0 ? lines.slice(crash).find(isError) : undefined) ?? fatal ?? lines.findLast(isError) ?? lines.at(-1);
  return (reason ?? '(no log)').trim().slice(0, 400);
}
