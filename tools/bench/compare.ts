import { pickRun, sideBySide } from './lib/comparison';
import { type BenchRun, readRuns, recordedSuites, resultsFile } from './lib/results';

/**
 * Two recorded runs of a suite side by side (tmp/bench/<suite>.jsonl, one line per run), with
 * the ratio B/A of every number: `npm run bench:compare -- <suite> [runA] [runB]`. A run is its
 * number in the file (1 the oldest, -1 the latest) or the start of its commit; by default the
 * last two, A the older. `--list` lists a suite's runs; without a suite, the suites with runs.
 */
function main(argv: string[]): void {
  const list = argv.includes('--list');
  const [suite, a, b] = argv.filter((x) => x !== '--list');
  if (!suite) {
    const suites = recordedSuites();
    console.log('usage: npm run bench:compare -- <suite> [runA=-2] [runB=-1] [--list]');
    console.log(
      suites.length
        ? `recorded: ${suites.map((s) => `${s} (${readRuns(s).length})`).join(', ')}`
        : 'no runs recorded yet (npm run bench -- <suite>)',
    );
    return;
  }
  const runs = readRuns(suite);
  if (list) {
    runs.forEach((run, i) => console.log(`${String(i + 1).padStart(3)}  ${describe(run)}`));
    return;
  }
  if (runs.length < 2 && !(a && b))
    throw new Error(`${resultsFile(suite)} holds ${runs.length} run(s): two are needed`);
  const [i, j] = [pickRun(runs, a ?? '-2'), pickRun(runs, b ?? '-1')];
  console.log(`${suite}: run ${i + 1} (A) and run ${j + 1} (B) of ${runs.length}`);
  console.log(`  A  ${describe(runs[i])}`);
  console.log(`  B  ${describe(runs[j])}`);
  console.log(sideBySide(runs[i], runs[j]));
}

function describe(run: BenchRun): string {
  const commit = run.commit ? `${run.commit.slice(0, 10)}${run.dirty ? '+changes' : ''}` : 'no commit';
  const env = Object.entries(run.env).map(([k, v]) => `${k}=${v}`);
  return [
    `${run.time.slice(0, 19).replace('T', ' ')} UTC`,
    commit,
    `${run.host.cores} cores, load ${run.host.loadAverage}`,
    `args: ${[...env, ...run.args].join(' ') || '(defaults)'}`,
    `${run.seconds} s`,
  ].join('  ');
}

try {
  main(process.argv.slice(2));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
