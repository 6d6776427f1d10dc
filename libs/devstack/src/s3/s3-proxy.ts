import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from '@pay/testing';
import { freePort } from '../stack/free-port';
import { tail } from '../stack/log-tail';
import type { S3Server } from './s3-server';

/** tools/s3proxy/pom.xml pins the same version. */
export const S3PROXY_VERSION = '4.1.0';

export interface S3ProxyOptions {
  /** Holds everything of this server (config, objects, log, pid); a restart reuses it. Absent: a temporary one */
  dir?: string;
  /** Its port; absent: the one it had in `dir` before, else a free one */
  port?: number;
  /** The S3Proxy jar; default <repo>/.local/s3proxy/lib, installed there on first use (tools/s3proxy/s3proxy.sh install) */
  libDir?: string;
  startTimeoutMs?: number;
}

/** The one identity a server accepts: anything signed with other keys, or unsigned, is refused. */
interface Credentials {
  accessKey: string;
  secretKey: string;
}

/** What a running server leaves in its directory, so another process can stop it. */
interface ServerState {
  pid: number;
  port: number;
  /** Where this JVM writes its class-data archive when it exits (the first run on a machine) */
  archiveOnExit?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A real S3 server (S3Proxy on its on-disk backend) on a free port with its own directory: the
 * object store of the local runner, the tests, the benches and chaos. It checks SigV2/SigV4
 * signatures and presigned-URL expiry and refuses anonymous requests, as S3 and a private MinIO
 * bucket do, so a download link cannot be forged, re-pointed, stretched or used late, and nobody
 * lists or writes the bucket without the credentials. Each start draws new random credentials
 * (no published value opens it); a restart keeps them, with the port and the files. The JVM
 * outlives the process that started it (a CLI starts it, a later one stops it); `stop` only ever
 * signals the process whose command line names this server's own config file.
 */
export class S3Proxy implements S3Server {
  private constructor(
    private readonly opts: Required<Omit<S3ProxyOptions, 'port'>>,
    private state: ServerState,
  ) {}

  /** Writes its config (new random credentials; the port kept for restarts), starts it, waits until it answers. */
  static async start(options: S3ProxyOptions = {}): Promise<S3Proxy> {
    const server = new S3Proxy(withDefaults(options), { pid: 0, port: 0 });
    const previous = S3Proxy.attach(server.opts);
    if (previous?.isOurs())
      throw new Error(`an S3Proxy already runs on ${server.opts.dir} (pid ${previous.state.pid})`);
    await server.configure(options.port);
    await server.launch();
    return server;
  }

  /** A server started by another process (or earlier), from its directory. */
  static attach(options: S3ProxyOptions & { dir: string }): S3Proxy | null {
    const opts = withDefaults(options);
    const file = join(opts.dir, 's3proxy.json');
    if (!existsSync(file)) return null;
    return new S3Proxy(opts, JSON.parse(readFileSync(file, 'utf8')) as ServerState);
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.state.port}`;
  }

  get env(): Record<string, string> {
    const { accessKey, secretKey } = this.credentials;
    return { S3_ENDPOINT: this.endpoint, S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey };
  }

  /** The identity of its config file (written by start). */
  private get credentials(): Credentials {
    const properties = new Map(
      readFileSync(this.configFile, 'utf8')
        .split('\n')
        .map((line): [string, string] => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return {
      accessKey: properties.get('s3proxy.identity') ?? '',
      secretKey: properties.get('s3proxy.credential') ?? '',
    };
  }

  /** The JVM's process id (0 before the first start): benches read its CPU time. */
  get pid(): number {
    return this.state.pid;
  }

  get running(): boolean {
    return this.isOurs();
  }

  get logFile(): string {
    return join(this.opts.dir, 's3proxy.log');
  }

  /** SIGTERM (the JVM closes its sockets on the way out), SIGKILL after 10 s. */
  async stop(): Promise<void> {
    if (!this.isOurs()) return;
    process.kill(this.state.pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    let killed = false;
    while (this.isOurs()) {
      if (!killed && Date.now() > deadline) {
        process.kill(this.state.pid, 'SIGKILL');
        killed = true;
      }
      await sleep(50);
    }
    this.keepArchive();
  }

  async restart(): Promise<void> {
    if (this.isOurs()) return;
    await this.launch();
  }

  /** Stops it and removes its directory (objects, config, log). */
  async close(): Promise<void> {
    await this.stop();
    rmSync(this.opts.dir, { recursive: true, force: true });
  }

  private get configFile(): string {
    return join(this.opts.dir, 's3proxy.properties');
  }

  /**
   * Class data of a previous S3Proxy start (AppCDS): with it the JVM starts in about half the
   * time. The first start on a machine records it as it exits; a JDK upgrade makes the JVM
   * ignore it (delete it to record a new one).
   */
  private get archive(): string {
    return join(this.opts.libDir, `s3proxy-${S3PROXY_VERSION}.jsa`);
  }

  /** Adopts the archive a stopped JVM wrote under its own name (atomic, so concurrent first runs cannot clash). */
  private keepArchive(): void {
    const written = this.state.archiveOnExit;
    if (!written || !existsSync(written)) return;
    if (existsSync(this.archive)) rmSync(written, { force: true });
    else renameSync(written, this.archive);
  }

  private get jar(): string {
    return join(this.opts.libDir, `s3proxy-${S3PROXY_VERSION}-jar-with-dependencies.jar`);
  }

  /** Fetches the jar into the default folder on first use (Maven Central, once per machine). */
  private install(): void {
    if (existsSync(this.jar)) return;
    const script = join(repoRoot(), 'tools', 's3proxy', 's3proxy.sh');
    if (this.opts.libDir === defaultLibDir()) execFileSync('bash', [script, 'install'], { stdio: 'inherit' });
    if (!existsSync(this.jar))
      throw new Error(`S3Proxy ${S3PROXY_VERSION} is not installed (${this.jar}): run bash ${script} install`);
  }

  private async launch(): Promise<void> {
    const { dir } = this.opts;
    this.install();
    const { port } = JSON.parse(readFileSync(join(dir, 'port.json'), 'utf8')) as { port: number };
    const out = openSync(this.logFile, 'a');
    // Not detached: an interrupted test run (Ctrl-C reaches the whole process group) takes it down too.
    const archiveOnExit = existsSync(this.archive) ? undefined : `${this.archive}.${process.pid}-${Date.now()}`;
    const cds = archiveOnExit ? `-XX:ArchiveClassesAtExit=${archiveOnExit}` : `-XX:SharedArchiveFile=${this.archive}`;
    const child = spawn('java', [...JVM_ARGS, cds, '-jar', this.jar, '--properties', this.configFile], {
      stdio: ['ignore', out, out],
    });
    child.unref();
    if (child.pid === undefined) throw new Error('could not start java (is a JDK 17+ on PATH?)');
    this.state = { pid: child.pid, port, archiveOnExit };
    writeFileSync(join(dir, 's3proxy.json'), JSON.stringify(this.state));
    try {
      await this.waitUntilAnswering(() => child.exitCode !== null || child.signalCode !== null);
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  /** The port (given, else the one of a previous start in this directory, else a free one) and new credentials. */
  private async configure(port?: number): Promise<void> {
    const { dir } = this.opts;
    mkdirSync(join(dir, 'data'), { recursive: true });
    const portFile = join(dir, 'port.json');
    const previousPort = existsSync(portFile)
      ? (JSON.parse(readFileSync(portFile, 'utf8')) as { port: number }).port
      : undefined;
    const chosen = port || previousPort || (await freePort());
    writeFileSync(portFile, JSON.stringify({ port: chosen }));
    // Random per start, never a constant: whoever reads this repository cannot sign for the store.
    const accessKey = `s3proxy-${randomBytes(6).toString('hex')}`;
    const secretKey = randomBytes(24).toString('base64url');
    writeFileSync(
      this.configFile,
      [
        `s3proxy.endpoint=http://127.0.0.1:${chosen}`,
        // Both signature versions, as MinIO and AWS accept; an unsigned request is refused.
        's3proxy.authorization=aws-v2-or-v4',
        `s3proxy.identity=${accessKey}`,
        `s3proxy.credential=${secretKey}`,
        // 4.x has no jclouds: filesystem-nio2 is its on-disk backend (a folder per bucket).
        'jclouds.provider=filesystem-nio2',
        `jclouds.filesystem.basedir=${join(dir, 'data')}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
  }

  private async waitUntilAnswering(exited: () => boolean): Promise<void> {
    const deadline = Date.now() + this.opts.startTimeoutMs;
    for (;;) {
      if (exited()) throw new Error(`S3Proxy exited during start-up; see ${this.logFile}:\n${tail(this.logFile)}`);
      try {
        // Any HTTP answer (an anonymous request gets 403) means Jetty is serving.
        await fetch(this.endpoint);
        return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(
          `S3Proxy did not answer within ${this.opts.startTimeoutMs} ms; see ${this.logFile}:\n${tail(this.logFile)}`,
        );
      await sleep(100);
    }
  }

  /** True while the recorded pid is this server's JVM (never another one, nor a reused pid). */
  private isOurs(): boolean {
    if (this.state.pid <= 0) return false;
    try {
      return readFileSync(`/proc/${this.state.pid}/cmdline`, 'utf8').includes(this.configFile);
    } catch {
      return false;
    }
  }
}

/**
 * A small heap, and the client compiler only: start-up is what a test run waits for (with the
 * class-data archive about 1-2 s on a loaded 2-core machine, against 5-7 s with the JVM's
 * defaults), and the traffic is a few files.
 */
const JVM_ARGS = ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Djava.awt.headless=true'];

const defaultLibDir = () => join(repoRoot(), '.local', 's3proxy', 'lib');

function withDefaults(options: S3ProxyOptions): Required<Omit<S3ProxyOptions, 'port'>> {
  return {
    dir: resolve(options.dir ?? mkdtempSync(join(tmpdir(), 's3proxy-'))),
    libDir: options.libDir ?? defaultLibDir(),
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
  };
}
