import type { Reported } from './report';
import type { BenchRun } from './results';

/** The run `selector` names: its number (1-based, negative from the end) or the start of its commit (the latest such). */
export function pickRun(runs: BenchRun[], selector: string): number {
  if (/^-?\d+$/.test(selector)) {
    const n = Number(selector);
    const i = n < 0 ? runs.length + n : n - 1;
    if (i < 0 || i >= runs.length) throw new Error(`no run ${selector}: there are ${runs.length}`);
    return i;
  }
  const i = runs.findLastIndex((r) => r.commit?.startsWith(selector));
  if (i < 0) throw new Error(`no run on a commit starting with ${selector}`);
  return i;
}

interface Entry {
  section: string;
  label: string;
  value: Reported | null;
}

/** A run's figures in the order it reported them: the host's numbers, the named groups, then every table's cells. */
function entries(run: BenchRun): Entry[] {
  const out: Entry[] = [];
  for (const [label, value] of Object.entries(run.host))
    if (typeof value === 'number') out.push({ section: 'host', label, value });
  for (const [section, values] of Object.entries(run.numbers))
    for (const [label, value] of Object.entries(values)) out.push({ section, label, value });
  for (const [section, rows] of Object.entries(run.tables)) {
    const keys = labelKeys(rows);
    rows.forEach((row, n) => {
      const name = [
        ...keys.map((k) => (typeof row[k] === 'number' ? `${k} ${row[k]}` : String(row[k]))),
        ...(unique(rows, keys) ? [] : [`#${n + 1}`]),
      ].join(', ');
      for (const [column, value] of Object.entries(row))
        if (!keys.includes(column)) out.push({ section, label: name ? `${name} › ${column}` : column, value });
    });
  }
  return out;
}

/** The columns that name a table's rows: none for one row, else its first, or its first two when the first repeats. */
function labelKeys(rows: Record<string, Reported>[]): string[] {
  const columns = Object.keys(rows[0] ?? {});
  if (rows.length < 2) return [];
  if (columns.length < 2 || unique(rows, columns.slice(0, 1))) return columns.slice(0, 1);
  return columns.slice(0, 2);
}

function unique(rows: Record<string, Reported>[], keys: string[]): boolean {
  return new Set(rows.map((r) => keys.map((k) => r[k]).join('\u0000'))).size === rows.length;
}

/** Two runs' figures side by side, A then B, with B/A for every number both have (text for the rest). */
export function sideBySide(runA: BenchRun, runB: BenchRun): string {
  const [a, b] = [entries(runA), entries(runB)];
  const key = (e: Entry) => `${e.section}\u0000${e.label}`;
  const inB = new Map(b.map((e) => [key(e), e.value]));
  const inA = new Map(a.map((e) => [key(e), e.value]));
  const all = [...a, ...b.filter((e) => !inA.has(key(e)))];
  const show = (v: Reported | null | undefined) =>
    v === undefined ? '–' : v === null ? 'NaN' : typeof v === 'number' ? String(Number(v.toPrecision(6))) : v;
  const rows = all.map((e) => {
    const [x, y] = [inA.get(key(e)), inB.get(key(e))];
    const ratio = typeof x === 'number' && typeof y === 'number' && x !== 0 ? (y / x).toFixed(2) : '';
    return { section: e.section, label: e.label, a: show(x), b: show(y), ratio };
  });
  const width = (f: (r: (typeof rows)[number]) => string, min: number) =>
    Math.max(min, ...rows.map((r) => f(r).length));
  const [wl, wa, wb] = [width((r) => r.label, 10) + 2, width((r) => r.a, 6), width((r) => r.b, 6)];
  const lines = [`\n${''.padEnd(wl)}${'A'.padStart(wa)}  ${'B'.padStart(wb)}    B/A`];
  let section = '';
  for (const r of rows) {
    if (r.section !== section) lines.push((section = r.section));
    lines.push(`  ${r.label.padEnd(wl - 2)}${r.a.padStart(wa)}  ${r.b.padStart(wb)}  ${r.ratio.padStart(5)}`);
  }
  return lines.join('\n');
}
