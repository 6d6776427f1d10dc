import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/**
 * Runs a tool the deployment checks need and returns its output. A missing binary fails with
 * `install` (what to do), never a skip; a failing run fails with what the tool printed (stdout
 * and stderr: promtool reports failed tests on stdout).
 */
export function runTool(cmd: string, args: string[], install: string, env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(cmd, args, {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    // Structural checks, not `instanceof Error`: errors thrown by Node's core modules come
    // from another realm than Jest's sandbox.
    const e =
      typeof err === 'object' && err !== null
        ? (err as { code?: unknown; stdout?: unknown; stderr?: unknown; message?: unknown })
        : {};
    if (e.code === 'ENOENT') {
      throw new Error(`\`${cmd}\` is not installed (not on PATH). Install it to run the deployment checks: ${install}`);
    }
    const printed = `${e.stdout ? String(e.stdout) : ''}${e.stderr ? String(e.stderr) : ''}`;
    throw new Error(`\`${cmd} ${args.join(' ')}\` failed: ${printed || String(e.message ?? err)}`);
  }
}
