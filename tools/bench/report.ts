import { cpus } from 'node:os';

/** Prints benchmark results as a table and as one JSON line, so people and scripts can read them. */
export function printResults(name: string, rows: Record<string, string | number>[]): void {
  const date = new Date().toISOString();
  console.log(`\n${name} (${date.slice(0, 10)}, ${cpus().length} cores)`);
  console.table(rows);
  console.log(JSON.stringify({ benchmark: name, date, cores: cpus().length, results: rows }));
}

export function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
