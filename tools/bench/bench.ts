import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { findProgram, usage } from './lib/programs';

/**
 * The one entry of the benchmarks: `npm run bench -- <suite> [args...]` runs the suite's built
 * program (dist/tools/bench/suites/<suite>.bench.js) in a process of its own with the arguments
 * after the name, as if it had been started alone (its CPU is the load generator's, its argv its
 * own), and exits as it did. Without a name it lists the suites; with an unknown one too, and exits 1.
 */
function main(args: string[]): void {
  const [name, ...rest] = args;
  const program = findProgram(name);
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(usage());
    return;
  }
  if (!program) {
    console.error(`unknown suite: ${name}\n\n${usage()}`);
    process.exitCode = 1;
    return;
  }
  const file = join(__dirname, `${program.file}.js`);
  if (!existsSync(file)) {
    console.error(`${file} not found: run npm run build first`);
    process.exitCode = 1;
    return;
  }
  const child = spawn(process.execPath, [...process.execArgv, file, ...rest], { stdio: 'inherit' });
  // Ctrl-C reaches both (one process group); a signal sent to this process alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  });
}

main(process.argv.slice(2));
