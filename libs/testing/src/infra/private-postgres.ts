import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../stack/local-stack';

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
 */
export class PrivatePostgres {
  private running = false;

  private constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {}

  static async start(opts: { port?: number } = {}): Promise<PrivatePostgres> {
    const dataDir = mkdtempSync(join(tmpdir(), 'private-pg-'));
    if (isRoot()) chownSync(dataDir, ...pgOwner());
    const pg = new PrivatePostgres(opts.port || (await freePort()), dataDir);
    try {
      await pg.exec('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
      await pg.start();
    } catch (err) {
      rmSync(dataDir, { recursive: true, force: true });
      throw err;
    }
    return pg;
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
    await this.exec('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', join(this.dataDir, 'server.log'), '-w', '-t', '30', 'start']);
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

  private async exec(tool: string, args: string[]): Promise<void> {
    const bin = join(PG_BIN, tool);
    const [file, argv] = isRoot() ? ['runuser', ['-u', PG_OS_USER, '--', bin, ...args]] : [bin, args];
    try {
      await run(file, argv, { timeout: 60_000 });
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
