import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Server } from './s3-server';

/** s3rver's built-in credentials. */
export const LOCAL_S3_CREDENTIALS = { accessKey: 'S3RVER', secretKey: 'S3RVER' };

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
}

/**
 * A local S3 server (s3rver, in this process) standing in for MinIO in local runs and tests.
 * It does not check signatures (a forged or unsigned request is served); tests must not claim to
 * prove what a link refuses on it (the end-to-end suites run on S3Proxy, which checks).
 * It can be stopped and started again on the same port with the same files, so chaos runs can
 * take object storage away in the middle of exports.
 */
export class LocalS3 implements S3Server {
  private server: S3rverInstance | undefined;

  private constructor(
    private readonly port: number,
    private readonly directory: string,
    private readonly ownsDirectory: boolean,
  ) {}

  static async start(port = 0, directory?: string): Promise<LocalS3> {
    const dir = directory ?? mkdtempSync(join(tmpdir(), 's3rver-'));
    mkdirSync(dir, { recursive: true });
    const first = LocalS3.listen(port, dir);
    const s3 = new LocalS3((await first.run()).port, dir, !directory);
    s3.server = first;
    return s3;
  }

  private static listen(port: number, directory: string): S3rverInstance {
    // s3rver ships no types; its constructor and run/close are all we use.
    const S3rver = require('s3rver') as new (opts: object) => S3rverInstance;
    return new S3rver({ port, address: '127.0.0.1', silent: true, directory });
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get env(): Record<string, string> {
    return {
      S3_ENDPOINT: this.endpoint,
      S3_ACCESS_KEY: LOCAL_S3_CREDENTIALS.accessKey,
      S3_SECRET_KEY: LOCAL_S3_CREDENTIALS.secretKey,
    };
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** Takes the server away: open (keep-alive) connections are cut too, as when the host goes down. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  }

  /** Starts again on the same port with the same files. */
  async restart(): Promise<void> {
    if (this.server) return;
    const server = LocalS3.listen(this.port, this.directory);
    await server.run();
    this.server = server;
  }

  async close(): Promise<void> {
    await this.stop();
    if (this.ownsDirectory) rmSync(this.directory, { recursive: true, force: true });
  }
}
