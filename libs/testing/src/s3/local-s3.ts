import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** s3rver's built-in credentials. */
export const LOCAL_S3_CREDENTIALS = { accessKey: 'S3RVER', secretKey: 'S3RVER' };

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}

/**
 * A local S3 server (s3rver, in this process) standing in for MinIO in local runs and tests.
 * It does not check presigned signatures or expiry; tests must not claim to prove those.
 */
export class LocalS3 {
  private constructor(
    private readonly server: S3rverInstance,
    private readonly directory: string,
    readonly endpoint: string,
  ) {}

  static async start(port = 0, directory?: string): Promise<LocalS3> {
    const dir = directory ?? mkdtempSync(join(tmpdir(), 's3rver-'));
    mkdirSync(dir, { recursive: true });
    // s3rver ships no types; its constructor and run/close are all we use.
    const S3rver = require('s3rver') as new (opts: object) => S3rverInstance;
    const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir });
    const { port: actual } = await server.run();
    return new LocalS3(server, directory ? '' : dir, `http://127.0.0.1:${actual}`);
  }

  get env(): Record<string, string> {
    return { S3_ENDPOINT: this.endpoint, S3_ACCESS_KEY: LOCAL_S3_CREDENTIALS.accessKey, S3_SECRET_KEY: LOCAL_S3_CREDENTIALS.secretKey };
  }

  async close(): Promise<void> {
    await this.server.close();
    if (this.directory) rmSync(this.directory, { recursive: true, force: true });
  }
}
