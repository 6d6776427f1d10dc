import { OutgoingRecord } from '../transport/bus-transport.interface';

/** One stream entry as stored: field names are short and fixed so entries stay small. */
export interface StreamEntry {
  id: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export function encodeFields(record: OutgoingRecord): string[] {
  return ['k', record.key, 'v', record.value, 'h', JSON.stringify(record.headers ?? {})];
}

function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new TypeError(`unexpected Redis reply for ${what}`);
  return value;
}

function asString(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  throw new TypeError(`unexpected Redis reply for ${what}`);
}

function parseHeaders(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') headers[name] = value;
  return headers;
}

/** `[id, [field, value, ...]]`; a null field list means the entry was trimmed away (XAUTOCLAIM/XCLAIM). */
export function parseEntry(raw: unknown): StreamEntry | null {
  const [idRaw, fieldsRaw] = asArray(raw, 'stream entry');
  const id = asString(idRaw, 'entry id');
  if (fieldsRaw === null) return null;
  const fields = asArray(fieldsRaw, 'entry fields').map((f) => asString(f, 'entry field'));
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i], fields[i + 1]);
  return { id, key: map.get('k') ?? '', value: map.get('v') ?? '', headers: parseHeaders(map.get('h')) };
}

export function parseEntries(raw: unknown): StreamEntry[] {
  return asArray(raw, 'entries')
    .map(parseEntry)
    .filter((e): e is StreamEntry => e !== null);
}

/** XREADGROUP reply: `[[streamKey, entries], ...]` or null on timeout. */
export function parseReadReply(raw: unknown): Map<string, StreamEntry[]> {
  const byStream = new Map<string, StreamEntry[]>();
  if (raw === null) return byStream;
  for (const item of asArray(raw, 'XREADGROUP')) {
    const [key, entries] = asArray(item, 'XREADGROUP stream');
    byStream.set(asString(key, 'stream key'), parseEntries(entries));
  }
  return byStream;
}

/** XAUTOCLAIM reply: `[nextCursor, entries, deletedIds]`. */
export function parseAutoClaimReply(raw: unknown): { cursor: string; entries: StreamEntry[]; deleted: string[] } {
  const [cursor, entries, deleted] = asArray(raw, 'XAUTOCLAIM');
  return {
    cursor: asString(cursor, 'XAUTOCLAIM cursor'),
    entries: parseEntries(entries),
    deleted: deleted === undefined ? [] : asArray(deleted, 'XAUTOCLAIM deleted').map((d) => asString(d, 'deleted id')),
  };
}

/** Extended XPENDING reply: `[[id, consumer, idleMs, deliveryCount], ...]` → id → delivery count. */
export function parsePendingCounts(raw: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of asArray(raw, 'XPENDING')) {
    const [id, , , count] = asArray(item, 'XPENDING entry');
    counts.set(asString(id, 'pending id'), Number(count));
  }
  return counts;
}
