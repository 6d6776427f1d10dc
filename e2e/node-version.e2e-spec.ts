import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@pay/testing';
import { SERVICES } from '@pay/devstack';

/**
 * The start-up check (docs/decisions/0018-node-24.md) on the built entry points: each refuses an
 * older Node.js before it connects to anything, naming the version found and the one required.
 * An older runtime is simulated with a preload that reports another process.versions.node, since
 * a real old Node.js is not something this suite can count on having.
 */
const required = readFileSync(join(repoRoot(), '.nvmrc'), 'utf8').trim();
const OLD = '20.20.2';

let dir: string;
let preload: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'node-version-'));
  preload = join(dir, 'old-node.js');
  writeFileSync(
    preload,
    `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${OLD}' } });\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(entry: string, args: string[], old: boolean) {
  return spawnSync(
    process.execPath,
    [...(old ? ['--require', preload] : []), join(repoRoot(), 'dist', ...entry.split('/')), ...args],
    {
      // No DATABASE_URL: a program that got past the check would fail on something else.
      env: { PATH: process.env.PATH, OPS_PORT: '0', GATEWAY_PORT: '0' },
      encoding: 'utf8',
      timeout: 20_000,
    },
  );
}

const refusal = (program: string) =>
  `${program}: Node.js ${OLD} is too old: this project requires Node.js ${required} or newer (the version in .nvmrc). ` +
  'Run `nvm install` (or `fnm use`) in the checkout, or let tools/test.sh and tools/dev/up.sh install it into .local/node.\n';

describe('on a Node.js older than .nvmrc', () => {
  it.each(SERVICES)('the %s service exits 1 naming both versions', (service) => {
    const result = run(`apps/${service}/src/main.js`, [], true);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: refusal(service),
    });
  });

  it.each([
    ['the admin CLI', 'tools/admin/main.js', ['--help'], 'admin'],
    ['a benchmark', 'tools/bench/suites/verify.bench.js', [], 'verify-bench'],
    ['chaos', 'tools/chaos/chaos.js', [], 'chaos'],
    ['the local runner', 'tools/dev/up.js', [], 'local runner'],
  ])('%s exits 1 naming both versions', (_label, entry, args, program) => {
    const result = run(entry, args, true);
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: refusal(program),
    });
  });

  it('the admin CLI runs on the required one', () => {
    const result = run('tools/admin/main.js', ['--help'], false);
    expect(result.stderr).not.toContain('too old');
    expect(result.status).toBe(0);
  });
});
