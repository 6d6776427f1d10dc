import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Finds the repository root (where dist/ lives) from src/ or dist/. */
export function repoRoot(from = __dirname): string {
  let dir = from;
  while (dir !== dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'qris-payments') return dir;
    dir = dirname(dir);
  }
  throw new Error(`repository root not found above ${from}`);
}
