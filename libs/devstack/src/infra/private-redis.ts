import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../stack/free-port';

/**
 * A Redis server of its own (a child `redis-server` on its own port on 127.0.0.1, working
 * folder in a temporary directory), for tests that stop Redis under a running service
 * without touching the machine's shared server:
 *
 *   const redis = await PrivateRedis.start();      // nothing on disk: a restart starts empty
 *   const kept = await PrivateRedis.start({ persistent: true }); // AOF: a restart keeps the data
 *   redis.url                                       // redis://127.0.0.1:<port>
 *   await redis.stop();                             // the server goes away (SIGKILL: no goodbye)
 *   await redis.start();                            // same port, same folder
 *   await redis.destroy();                          // stopped and its folder removed
 */
export class PrivateRedis {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly persistent: boolean,
    private readonly appendfsync: 'always' | 'everysec',
    private readonly extraArgs: readonly string[],
  ) {}

  /**
   * `appendfsync` (persistent only): `always` by default; docker-compose's Redis runs `everysec`.
   * `args`: more redis-server options (say `--replicaof 127.0.0.1 <port>`).
   */
  static async start(
    opts: { port?: number; persistent?: boolean; appendfsync?: 'always' | 'everysec'; args?: readonly string[] } = {},
  ): Promise<PrivateRedis> {
    const redis = new PrivateRedis(
      opts.port || (await freePort()),
      mkdtempSync(join(tmpdir(), 'private-redis-')),
      opts.persistent ?? false,
      opts.appendfsync ?? 'always',
      opts.args ?? [],
    );
    try {
      await redis.start();
    } catch (err) {
      await redis.destroy();
      throw err;
    }
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get isRunning(): boolean {
    return this.child !== undefined;
  }

  /** Starts the server (again); resolves once it answers PING. */
  async start(): Promise<void> {
    if (this.child) return;
    const persistence = this.persistent
      ? ['--appendonly', 'yes', '--appendfsync', this.appendfsync]
      : ['--appendonly', 'no'];
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        ...persistence,
        '--maxmemory-policy',
        'noeviction',
        ...this.extraArgs,
      ],
      {
        stdio: 'ignore',
      },
    );
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await this.stop();
        throw new Error(`redis-server did not start on port ${this.port}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Stops the server and waits until it has exited; connections see a dropped socket. `kill`
   * (the default) is SIGKILL, no goodbye; `shutdown` is SIGTERM, Redis' own clean shutdown (the
   * append-only file flushed first), as `docker compose restart` does.
   */
  async stop(mode: 'kill' | 'shutdown' = 'kill'): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(mode === 'kill' ? 'SIGKILL' : 'SIGTERM');
    await exited;
  }

  /** Stops the server (if running) and removes its folder. */
  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
