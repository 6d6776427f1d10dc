import type { ListPosition } from './history.repository';

/** The lists a cursor can belong to: a cursor of one list is refused by the others. */
export type ListKind = 'payin' | 'disbursement' | 'movement';

const ID_FORMAT: Record<ListKind, RegExp> = {
  payin: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  disbursement: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  movement: /^[1-9][0-9]{0,18}$/,
};
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_CURSOR_LENGTH = 200;

/**
 * An opaque cursor: base64url of `[list, createdAt, id]`, the last row of the page it came from.
 * It is a position, never an offset: rows inserted or changed since do not shift the next page.
 * It carries no merchant and needs no secret: the merchant comes from the token, and any
 * position only ever selects the caller's own rows.
 */
export function encodeCursor(kind: ListKind, at: ListPosition): string {
  return Buffer.from(JSON.stringify([kind, at.createdAt.toISOString(), at.id])).toString('base64url');
}

/** The position, or undefined when the text is not a cursor of this list. */
export function decodeCursor(kind: ListKind, text: string): ListPosition | undefined {
  if (text.length > MAX_CURSOR_LENGTH || !BASE64URL.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 3) return undefined;
  const [k, createdAt, id] = value as unknown[];
  if (k !== kind || typeof createdAt !== 'string' || typeof id !== 'string') return undefined;
  if (!ISO_MILLIS.test(createdAt) || !ID_FORMAT[kind].test(id)) return undefined;
  const at = new Date(createdAt);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== createdAt) return undefined;
  if (kind === 'movement' && BigInt(id) > 9223372036854775807n) return undefined;
  return { createdAt: at, id };
}
