import { execFileSync } from 'node:child_process';
import { TEST_PG_SERVER, uniqueName } from '@pay/testing';
import { recordHost } from './report';

/**
 * The ceiling the money path is held against: pgbench -N (the simple-update mix, no
 * branch/teller hot rows: independent writes), 8 clients for 10 s on this machine's Postgres,
 * in a database of its own. Returns transactions per second (recorded with the run's host facts).
 */
export function pgbenchTps(): number {
  const db = new URL(`${TEST_PG_SERVER}/${uniqueName('pgbench')}`).pathname.slice(1);
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', db]);
  try {
    execFileSync('pgbench', ['-h', '127.0.0.1', '-U', 'postgres', '-i', '-q', '-s', '4', db], { stdio: 'ignore' });
    const out = execFileSync(
      'pgbench',
      ['-h', '127.0.0.1', '-U', 'postgres', '-N', '-c', '8', '-j', '2', '-T', '10', db],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
    recordHost({ pgbenchTps: Math.round(tps) });
    return tps;
  } finally {
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--force', db]);
  }
}
