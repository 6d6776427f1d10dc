import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { waitFor } from '@pay/testing';
import { freePort } from '../stack/free-port';
import { PrivateRedis } from './private-redis';

/**
 * Redis as a Sentinel deployment of its own: a primary, a replica of it and one Sentinel
 * watching them under the name `pay` (quorum 1), each a child process on 127.0.0.1:
 *
 *   const ha = await PrivateSentinel.start();
 *   ha.url                  // redis+sentinel://127.0.0.1:<sentinel port>/pay
 *   await ha.failover();    // the replica is promoted, the old primary becomes its replica
 *   await ha.primaryPort()  // the port of the primary the Sentinel names now
 *   await ha.destroy();
 */
export class PrivateSentinel {
  private constructor(
    private readonly servers: PrivateRedis[],
    private readonly sentinel: ChildProcess,
    private readonly sentinelPort: number,
    private readonly dir: string,
  ) {}

  static readonly NAME = 'pay';

  /** `servers`: how the primary and the replica keep their data (PrivateRedis.start's options; default in memory). */
  static async start(
    servers: { persistent?: boolean; appendfsync?: 'always' | 'everysec' } = {},
  ): Promise<PrivateSentinel> {
    const primary = await PrivateRedis.start(servers);
    const replica = await PrivateRedis.start({ ...servers, args: ['--replicaof', '127.0.0.1', String(primary.port)] });
    const sentinelPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'private-sentinel-'));
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${PrivateSentinel.NAME} 127.0.0.1 ${primary.port} 1`,
        `sentinel down-after-milliseconds ${PrivateSentinel.NAME} 2000`,
        `sentinel failover-timeout ${PrivateSentinel.NAME} 10000`,
      ].join('\n') + '\n',
    );
    const sentinel = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
    const ha = new PrivateSentinel([primary, replica], sentinel, sentinelPort, dir);
    try {
      // Ready once the Sentinel knows the replica and sees it in sync (a failover needs one).
      await waitFor(
        async () => (await ha.replicaInSync()) !== undefined,
        20_000,
        'the Sentinel to see the replica in sync',
      );
    } catch (err) {
      await ha.destroy();
      throw err;
    }
    return ha;
  }

  get url(): string {
    return `redis+sentinel://127.0.0.1:${this.sentinelPort}/${PrivateSentinel.NAME}`;
  }

  /** The port of the primary the Sentinel names now. */
  async primaryPort(): Promise<number> {
    const [, port] = (await this.ask('get-master-addr-by-name')) as [string, string];
    return Number(port);
  }

  /** Promotes the replica (SENTINEL FAILOVER) and waits until the Sentinel names it and the old primary follows it. */
  async failover(): Promise<void> {
    const before = await this.primaryPort();
    await this.ask('failover');
    await waitFor(
      async () => (await this.primaryPort()) !== before && (await this.replicaInSync()) !== undefined,
      30_000,
      'the failover to finish',
    );
  }

  async destroy(): Promise<void> {
    if (this.sentinel.exitCode === null && this.sentinel.signalCode === null) {
      const exited = new Promise((resolve) => this.sentinel.once('exit', resolve));
      this.sentinel.kill('SIGKILL');
      await exited;
    }
    for (const server of this.servers) await server.destroy();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A replica the Sentinel sees up and in sync (its port), if any. */
  private async replicaInSync(): Promise<number | undefined> {
    const replicas = (await this.ask('replicas').catch(() => [])) as string[][];
    for (const fields of replicas) {
      const info = Object.fromEntries(fields.flatMap((_, i) => (i % 2 === 0 ? [[fields[i], fields[i + 1]]] : [])));
      if (info.flags === 'slave' && info['master-link-status'] === 'ok') return Number(info.port);
    }
    return undefined;
  }

  private async ask(command: string): Promise<unknown> {
    const sentinel = new Redis({
      port: this.sentinelPort,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    sentinel.on('error', () => undefined);
    try {
      await sentinel.connect();
      return await sentinel.call('SENTINEL', command, PrivateSentinel.NAME);
    } finally {
      sentinel.disconnect();
    }
  }
}
