// Helpers for the per-area mapping files: read an API object by the first of several field names,
// so a renamed field on the server is a one-line change there, not a hunt through the pages.

export type Raw = Record<string, unknown>;

export function obj(v: unknown): Raw {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {};
}

export function first(r: Raw, ...keys: string[]): unknown {
  for (const k of keys) if (r[k] !== undefined && r[k] !== null) return r[k];
  return undefined;
}

export function str(r: Raw, ...keys: string[]): string {
  const v = first(r, ...keys);
  return v === undefined ? '' : String(v);
}

export function optStr(r: Raw, ...keys: string[]): string | null {
  const v = first(r, ...keys);
  return v === undefined ? null : String(v);
}

export function num(r: Raw, ...keys: string[]): number {
  const v = first(r, ...keys);
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
}

export function optNum(r: Raw, ...keys: string[]): number | null {
  const v = first(r, ...keys);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

export function bool(r: Raw, ...keys: string[]): boolean {
  return Boolean(first(r, ...keys));
}

/** A list answer: a bare array, or a history page `{ items, nextCursor }`. */
export function page<T>(v: unknown, map: (r: Raw) => T): { items: T[]; nextCursor: string | null } {
  if (Array.isArray(v)) return { items: v.map((x) => map(obj(x))), nextCursor: null };
  const r = obj(v);
  const items = first(r, 'items', 'data', 'rows');
  return { items: Array.isArray(items) ? items.map((x) => map(obj(x))) : [], nextCursor: optStr(r, 'nextCursor', 'cursor') };
}

/** A fee is a number or the API's fee object `{ amount, percentage, fixed }`. */
export function feeAmount(r: Raw, key = 'fee'): number | null {
  const v = r[key];
  if (typeof v === 'number') return v;
  return v && typeof v === 'object' ? optNum(obj(v), 'amount') : null;
}
