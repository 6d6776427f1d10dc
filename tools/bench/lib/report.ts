import { cpus } from 'node:os';

/** A value a bench reports: a number, or a word (a target met, a plan, a label). */
export type Reported = number | string;
type Row = Record<string, Reported>;

/** What the running bench has reported so far, for its line in tmp/bench/<suite>.jsonl (lib/results.ts). */
export interface Reports {
  /** Host facts measured in the run (the pgbench -N ceiling) */
  host: Record<string, number>;
  /** Named groups of numbers, for the figures a bench prints as sentences */
  numbers: Record<string, Record<string, Reported>>;
  /** Every table printed, by its title */
  tables: Record<string, Row[]>;
}

const reports: Reports = { host: {}, numbers: {}, tables: {} };

/** Prints benchmark results as a table and as one JSON line, so people and scripts can read them. */
export function printResults(name: string, rows: Row[]): void {
  const date = new Date().toISOString();
  console.log(`\n${name} (${date.slice(0, 10)}, ${cpus().length} cores)`);
  console.table(rows);
  console.log(JSON.stringify({ benchmark: name, date, cores: cpus().length, results: rows }));
  recordTable(name, rows);
}

/** Records a table the bench printed its own way (printResults records its tables itself). */
export function recordTable(title: string, rows: Row[]): void {
  let key = title;
  for (let n = 2; key in reports.tables; n++) key = `${title} (${n})`;
  reports.tables[key] = rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, structured(v)])));
}

/** Records the figures a bench printed as a sentence, under `group` (added to what the group holds). */
export function recordNumbers(group: string, values: Row): void {
  reports.numbers[group] = { ...reports.numbers[group], ...values };
}

/** Records a fact of the machine measured in the run (a ceiling such as pgbench -N). */
export function recordHost(facts: Record<string, number>): void {
  Object.assign(reports.host, facts);
}

/** Everything reported so far. */
export function reported(): Reports {
  return reports;
}

/** A number printed as text ('0.123', '1.00') as the number it is; any other text as it is. */
export function structured(value: Reported): Reported {
  return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
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
