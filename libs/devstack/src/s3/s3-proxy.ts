import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '@pay/testing';
import { freePort, tail } from '../stack/local-stack';
import type { S3Server } from './s3-server';

/** tools/s3proxy/pom.xml pins the same version. */
export const S3PROXY_VERSION = '4.1.0';

/** The identity S3Proxy accepts; anything signed with other keys, or unsigned, is refused. */
export const S3PROXY_CREDENTIALS = { accessKey: 'local-s3proxy', secretKey: 'local-s3proxy-secret-key' };

export interface S3ProxyOptions {
  /** Holds everything of this server (config, objects, log, pid); a restart reuses it. */
  dir: string;
  /** The S3Proxy jar (tools/s3proxy/s3proxy.sh install); default <repo>/.local/s3proxy/lib */
  libDir?: string;
  startTimeoutMs?: number;
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
 * A real S3 server (S3Proxy on its on-disk backend) on a free port with its own directory. Unlike
 * s3rver it checks SigV2/SigV4 signatures, presigned-URL expiry and refuses anonymous requests,
 * so tests can prove a download link cannot be forged, re-pointed or used late. The JVM outlives
 * the process that started it (a CLI starts it, a later one stops it); `stop` only ever signals
 * the process whose command line names this server's own config file.
 */
export class S3Proxy implements S3Server {
  private constructor(
    private readonly opts: Required<S3ProxyOptions>,
    private state: ServerState,
  ) {}

  /** Writes the config on first use (a free port kept for restarts), starts it, waits until it answers. */
  static async start(options: S3ProxyOptions): Promise<S3Proxy> {
    const server = new S3Proxy(withDefaults(options), { pid: 0, port: 0 });
    await server.launch();
    return server;
  }

  /** A server started by another process (or earlier), from its directory. */
  static attach(options: S3ProxyOptions): S3Proxy | null {
    const opts = withDefaults(options);
    const file = join(opts.dir, 's3proxy.json');
    if (!existsSync(file)) return null;
    return new S3Proxy(opts, JSON.parse(readFileSync(file, 'utf8')) as ServerState);
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.state.port}`;
  }

  get env(): Record<string, string> {
    return {
      S3_ENDPOINT: this.endpoint,
      S3_ACCESS_KEY: S3PROXY_CREDENTIALS.accessKey,
      S3_SECRET_KEY: S3PROXY_CREDENTIALS.secretKey,
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

  private async launch(): Promise<void> {
    const { dir } = this.opts;
    if (!existsSync(this.jar))
      throw new Error(
        `S3Proxy ${S3PROXY_VERSION} is not installed (${this.jar}): run bash tools/s3proxy/s3proxy.sh install`,
      );
    mkdirSync(join(dir, 'data'), { recursive: true });
    const previous = S3Proxy.attach(this.opts);
    if (previous?.isOurs()) throw new Error(`an S3Proxy already runs on ${dir} (pid ${previous.state.pid})`);
    if (!existsSync(this.configFile)) await this.configure();
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

  private async configure(): Promise<void> {
    const { dir } = this.opts;
    const port = await freePort();
    writeFileSync(join(dir, 'port.json'), JSON.stringify({ port }));
    writeFileSync(
      this.configFile,
      [
        `s3proxy.endpoint=http://127.0.0.1:${port}`,
        // Both signature versions, as MinIO and AWS accept; an unsigned request is refused.
        's3proxy.authorization=aws-v2-or-v4',
        `s3proxy.identity=${S3PROXY_CREDENTIALS.accessKey}`,
        `s3proxy.credential=${S3PROXY_CREDENTIALS.secretKey}`,
        // 4.x has no jclouds: filesystem-nio2 is its on-disk backend (a folder per bucket).
        'jclouds.provider=filesystem-nio2',
        `jclouds.filesystem.basedir=${join(dir, 'data')}`,
        '',
      ].join('\n'),
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

function withDefaults(options: S3ProxyOptions): Required<S3ProxyOptions> {
  return {
    dir: resolve(options.dir),
    libDir: options.libDir ?? join(repoRoot(), '.local', 's3proxy', 'lib'),
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
  };
}
