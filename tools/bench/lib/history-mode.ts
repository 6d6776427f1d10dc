/**
 * The history bench mode (BENCH_HISTORY=1 or --history): a bench first runs on an empty
 * database, then on one holding a realistic history, and prints both figures side by side.
 */
export function historyMode(): boolean {
  return process.env.BENCH_HISTORY === '1' || process.argv.includes('--history');
}

/** The bench's positional arguments, without the --history flag. */
export function benchArgs(): string[] {
  return process.argv.slice(2).filter((a) => a !== '--history');
}
