import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { ARGON2ID_OPTIONS } from '@pay/persistence';
import { Counter, Gauge, type Registry } from 'prom-client';
import { RetryLaterError } from './retry-later.error';
import type { SignInConfig } from '../../kernel/rate-limit/sign-in.config';

/** The hashing threads' nice value (Linux, per thread): below the event loop's 0, so they yield to it. */
const HASHING_NICE = 10;

type Job = { op: 'verify'; hash: string; password: string } | { op: 'hash'; password: string };
type Answer = { ok: boolean | string } | { error: string };

interface Pending {
  job: Job;
  resolve: (answer: Answer) => void;
  reject: (err: Error) => void;
}

interface HashThread {
  worker: Worker;
  current?: Pending;
}

/**
 * A hashing thread: argon2's synchronous calls on a worker thread of its own. Plain JavaScript,
 * evaluated (the same code under Jest and from dist/); the native module is loaded by its path.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
// Linux keeps a nice value per thread: this one yields the CPU to the event loop (and to the
// database on the same host) whenever they want it, so a flood slows sign-in, not the rest.
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {}
parentPort.on('message', (job) => {
  let answer;
  try {
    answer = { ok: job.op === 'verify' ? argon2.verifySync(job.hash, job.password) : argon2.hashSync(job.password, workerData.options) };
  } catch (err) {
    answer = { error: String((err && err.message) || err) };
  }
  parentPort.postMessage(answer);
});
`;

/**
 * Every argon2id hash and verification of the gateway (sign-in, confirm, set-password), on a
 * fixed number of worker threads of its own (PASSWORD_HASH_CONCURRENCY) behind a bounded queue
 * (PASSWORD_HASH_QUEUE_DEPTH). @node-rs/argon2's async calls run on libuv's threadpool (4
 * threads), which file reads (the dashboard's pages) and dns.lookup (callback URLs) need too: a
 * sign-in flood held all four and a page took seconds. Here a flood costs at most the pool's
 * threads; past the queue it is refused at once, 429 RATE_LIMITED with Retry-After, instead of
 * waiting in a line nobody can get through.
 *
 * An unknown email (or a user without a password yet) is verified against a hash of a random
 * password made at start-up: the same work, on the same threads, as a real one (decision 0023).
 */
export class PasswordHasher implements OnModuleInit, OnModuleDestroy {
  private readonly threads: HashThread[] = [];
  private readonly idle: HashThread[] = [];
  private readonly waiting: Pending[] = [];
  private readonly operations: Counter<'operation'>;
  private readonly refused: Counter;
  private dummyHash: Promise<string> | undefined;
  private closing = false;

  constructor(
    private readonly settings: SignInConfig['hashing'],
    registry: Registry,
  ) {
    this.operations = new Counter({
      name: 'password_hashing_total',
      help: 'argon2id operations done by the password hashing pool, by operation (verify, hash)',
      labelNames: ['operation'],
      registers: [registry],
    });
    this.refused = new Counter({
      name: 'password_hashing_refused_total',
      help: 'Passwords refused (429) because the hashing pool and its queue were full',
      registers: [registry],
    });
    const waiting = this.waiting;
    new Gauge({
      name: 'password_hashing_waiting',
      help: 'Passwords waiting for a hashing thread',
      registers: [registry],
      collect() {
        this.set(waiting.length);
      },
    });
  }

  onModuleInit(): void {
    for (let i = 0; i < this.settings.concurrency; i += 1) this.startThread();
    // Made before the first sign-in, so the first unknown email costs what every other one does;
    // a failure surfaces at the first verification against it.
    this.dummy().catch(() => undefined);
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    for (const pending of this.waiting.splice(0)) pending.reject(new Error('password hasher closed'));
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }

  /**
   * Refuses now (429) when a password would not get a thread or a place in the queue: a flood is
   * turned away before it costs a Redis or database round trip. The same check again guards the
   * queue itself, as others may fill it meanwhile.
   */
  checkRoom(): void {
    if (this.idle.length === 0 && this.waiting.length >= this.settings.queueDepth) this.refuse();
  }

  /** Whether `password` matches `passwordHash`; without a hash, the same argon2 work against the dummy and false. */
  async verify(passwordHash: string | null, password: string): Promise<boolean> {
    const hash = passwordHash ?? (await this.dummy());
    const ok = await this.run({ op: 'verify', hash, password });
    // A stored hash argon2 cannot parse is not a match; nor is anything that matched the dummy.
    return passwordHash !== null && ok === true;
  }

  /** A new password's argon2id hash (OWASP's parameters, ARGON2ID_OPTIONS). */
  async hash(password: string): Promise<string> {
    const hash = await this.run({ op: 'hash', password });
    if (typeof hash !== 'string') throw new Error('password hashing failed');
    return hash;
  }

  /** The hash of a random password nobody knows, made once. */
  private dummy(): Promise<string> {
    this.dummyHash ??= this.run({ op: 'hash', password: randomBytes(32).toString('base64url') }, true).then(String);
    return this.dummyHash;
  }

  /**
   * Runs the job on an idle thread, or queues it behind the busy ones while the queue has room;
   * a full queue refuses at once (429). `unbounded`: the start-up's own job, never refused.
   */
  private run(job: Job, unbounded = false): Promise<boolean | string> {
    if (this.closing) return Promise.reject(new Error('password hasher closed'));
    if (!unbounded) this.checkRoom();
    return new Promise<Answer>((resolve, reject) => {
      const pending = { job, resolve, reject };
      const thread = this.idle.pop();
      if (thread) this.dispatch(thread, pending);
      else this.waiting.push(pending);
    }).then((answer) => {
      if ('error' in answer) {
        // verify: an unparseable stored hash is a mismatch; hash: a real failure.
        if (job.op === 'verify') return false;
        throw new Error(`password hashing failed: ${answer.error}`);
      }
      this.operations.inc({ operation: job.op });
      return answer.ok;
    });
  }

  private refuse(): never {
    this.refused.inc();
    throw new RetryLaterError(ErrorCode.RateLimited, 1, 'Too many sign-ins are being checked at once; retry after 1 s');
  }

  private dispatch(thread: HashThread, pending: Pending): void {
    thread.current = pending;
    thread.worker.postMessage(pending.job);
  }

  /** The thread is free: the next waiting job, or back to idle. */
  private release(thread: HashThread): void {
    thread.current = undefined;
    const next = this.waiting.shift();
    if (next) this.dispatch(thread, next);
    else this.idle.push(thread);
  }

  private startThread(): void {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { argon2: require.resolve('@node-rs/argon2'), options: ARGON2ID_OPTIONS, nice: HASHING_NICE },
    });
    // A thread waiting for work keeps no process alive (Jest, a CLI that forgot to close).
    worker.unref();
    const thread: HashThread = { worker };
    this.threads.push(thread);
    worker.on('message', (answer: Answer) => {
      const current = thread.current;
      this.release(thread);
      current?.resolve(answer);
    });
    // A thread that died (out of memory, a native crash) fails its job and is replaced.
    const died = (err: Error) => {
      const current = thread.current;
      thread.current = undefined;
      this.threads.splice(this.threads.indexOf(thread), 1);
      const idleAt = this.idle.indexOf(thread);
      if (idleAt >= 0) this.idle.splice(idleAt, 1);
      current?.reject(err);
      if (!this.closing) {
        this.startThread();
        const fresh = this.idle.pop();
        if (fresh) this.release(fresh);
      }
    };
    worker.once('error', died);
    worker.once('exit', (code) => {
      if (this.threads.includes(thread)) died(new Error(`password hashing thread exited with code ${code}`));
    });
    this.idle.push(thread);
  }
}
