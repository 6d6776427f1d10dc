import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { type LocalStack, SERVICES } from '@pay/devstack';
import Redis from 'ioredis';

/** Socket inode -> local TCP port, for every IPv4/IPv6 TCP socket on this machine. */
function localPortsByInode(): Map<string, number> {
  const ports = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      ports.set(cols[9], parseInt(cols[1].split(':')[1], 16));
    }
  }
  return ports;
}

/** Local TCP port -> the service holding that socket. */
function servicesByPort(stack: LocalStack): Map<number, string> {
  const ports = localPortsByInode();
  const out = new Map<number, string>();
  for (const service of SERVICES) {
    const pid = stack.pid(service);
    if (!pid) continue;
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        const port = inode ? ports.get(inode) : undefined;
        if (port) out.set(port, service);
      } catch {
        // closed meanwhile
      }
    }
  }
  return out;
}

/**
 * Redis commands per second of each service of the stack, by command (EVALs by their first
 * Redis call), from MONITOR for `ms`; other clients of the same Redis are left out.
 */
export async function redisCommandsByProcess(
  redisUrl: string,
  stack: LocalStack,
  ms: number,
): Promise<Record<string, string | number>[]> {
  const byPort = servicesByPort(stack);
  const counts = new Map<string, number>();
  const client = new Redis(redisUrl, { connectionName: 'idle-bench-monitor' });
  client.on('error', (err: Error) => console.warn(`redis monitor: ${err.message}`));
  const monitor = await client.monitor();
  monitor.on('error', (err: Error) => console.warn(`redis monitor: ${err.message}`));
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const service = byPort.get(Number(source.split(':').pop()));
    if (!service) return;
    const name = String(args[0]).toUpperCase();
    const script =
      name === 'EVAL' || name === 'EVALSHA'
        ? ` ${/redis\.call\('(\w+)'/.exec(String(args[1]))?.[0]?.slice(12, -1) ?? String(args[1]).slice(0, 8)}`
        : '';
    const key = `${service} ${name}${script}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  await new Promise((r) => setTimeout(r, ms));
  monitor.disconnect();
  client.disconnect();
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([key, n]) => ({
      process: key.split(' ')[0],
      command: key.slice(key.indexOf(' ') + 1),
      perSecond: Math.round((n / ms) * 10_000) / 10,
    }));
}
