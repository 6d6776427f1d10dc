import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../stack/free-port';

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** initdb and postgres refuse to run as root; as root we run them as this user. */
const PG_OS_USER = 'postgres';

/**
 * A PostgreSQL cluster of its own (initdb into a temporary folder, its own port on 127.0.0.1,
 * trust auth for user `postgres`), for tests that stop the database under a running service
 * without touching the machine's shared server:
 *
 *   const pg = await PrivatePostgres.start();
 *   pg.url('mydb')          // postgresql://postgres@127.0.0.1:<port>/mydb
 *   await pg.stop();        // the server goes away (fast shutdown: sessions are terminated)
 *   await pg.start();       // same port, same data
 *   await pg.destroy();     // stopped and its folder removed
 *
 * A failover: `const standby = await pg.standby()` streams from it; `pg.setReadOnly()` fences the
 * old primary (every session, open ones included, takes no writes: what a failover leaves of it);
 * `await standby.promote()` makes the standby the primary.
 */
export class PrivatePostgres {
  private running = false;

  private constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {}

  static async start(opts: { port?: number } = {}): Promise<PrivatePostgres> {
    const pg = await PrivatePostgres.unstarted(opts.port);
    try {
      await pg.exec('initdb', [
        '-D',
        pg.dataDir,
        '-U',
        'postgres',
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--no-sync',
        '--no-instructions',
      ]);
      await pg.start();
    } catch (err) {
      rmSync(pg.dataDir, { recursive: true, force: true });
      throw err;
    }
    return pg;
  }

  private static async unstarted(port?: number): Promise<PrivatePostgres> {
    const dataDir = mkdtempSync(join(tmpdir(), 'private-pg-'));
    if (isRoot()) chownSync(dataDir, ...pgOwner());
    return new PrivatePostgres(port || (await freePort()), dataDir);
  }

  /** A hot standby of this server (pg_basebackup, streaming), on a port of its own; resolves once it accepts connections. */
  async standby(): Promise<PrivatePostgres> {
    const standby = await PrivatePostgres.unstarted();
    try {
      await standby.exec('pg_basebackup', [
        '-D',
        standby.dataDir,
        '-h',
        '127.0.0.1',
        '-p',
        String(this.port),
        '-U',
        'postgres',
        '-X',
        'stream',
        '-R',
        '--no-sync',
        '--checkpoint=fast',
      ]);
      await standby.start();
    } catch (err) {
      rmSync(standby.dataDir, { recursive: true, force: true });
      throw err;
    }
    return standby;
  }

  /** A standby made primary (pg_ctl promote); resolves once it takes writes. */
  async promote(): Promise<void> {
    await this.exec('pg_ctl', ['-D', this.dataDir, '-w', '-t', '30', 'promote']);
  }

  /**
   * The server made read-only for every session, the open ones included (`default_transaction_read_only`,
   * reloaded): a fenced old primary, or a writer that came back as a reader. `false` undoes it.
   */
  async setReadOnly(readOnly = true): Promise<void> {
    await this.psql(
      `ALTER SYSTEM SET default_transaction_read_only = ${readOnly ? 'on' : 'off'}`,
      'SELECT pg_reload_conf()',
    );
  }

  /**
   * Resolves once this standby has replayed everything `primary` has committed so far (a failover
   * that loses nothing). The target is the WAL's insert position, not its write position: these
   * servers run `synchronous_commit = off`, so a commit is acknowledged before its WAL is written.
   */
  async caughtUpWith(primary: PrivatePostgres, timeoutMs = 30_000): Promise<void> {
    const target = await primary.psql('SELECT pg_current_wal_insert_lsn()');
    for (const deadline = Date.now() + timeoutMs; ;) {
      if ((await this.psql(`SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn`)) === 't') return;
      if (Date.now() > deadline)
        throw new Error(`the standby on port ${this.port} did not replay up to ${target} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The last statement's output (unaligned, tuples only) of `statements`, run by psql as user postgres. */
  private async psql(...statements: string[]): Promise<string> {
    const args = [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.port),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-v',
      'ON_ERROR_STOP=1',
      '-qAt',
      ...statements.flatMap((s) => ['-c', s]),
    ];
    return (await this.exec('psql', args)).trim();
  }

  get isRunning(): boolean {
    return this.running;
  }

  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server on its data (again); resolves once it accepts connections. */
  async start(): Promise<void> {
    if (this.running) return;
    const options = `-p ${this.port} -k ${this.dataDir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    await this.exec('pg_ctl', [
      '-D',
      this.dataDir,
      '-o',
      options,
      '-l',
      join(this.dataDir, 'server.log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
    this.running = true;
  }

  /**
   * Stops the server. `fast` (the default) terminates every session, as a failover does;
   * `immediate` is a crash (recovery on the next start).
   */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!this.running) return;
    await this.exec('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
    this.running = false;
  }

  /** Stops the server (if running) and removes its data folder. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async exec(tool: string, args: string[]): Promise<string> {
    const bin = join(PG_BIN, tool);
    const [file, argv] = isRoot() ? ['runuser', ['-u', PG_OS_USER, '--', bin, ...args]] : [bin, args];
    try {
      return (await run(file, argv, { timeout: 60_000 })).stdout;
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`${tool} failed: ${(e.stderr || e.message).trim()}`);
    }
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function pgOwner(): [number, number] {
  const id = (flag: string) => Number(execFileSync('id', [flag, PG_OS_USER], { encoding: 'utf8' }).trim());
  return [id('-u'), id('-g')];
}
