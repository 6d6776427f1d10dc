/**
 * What is kept of a receiver's answer beside its attempt: text PostgreSQL will store, whatever
 * bytes the receiver sent. The bytes are read as UTF-8, each invalid sequence becoming one U+FFFD
 * (an incomplete sequence at the end, where the answer was cut off, is dropped); NUL, which a
 * PostgreSQL text refuses, is removed; at most `maxChars` UTF-16 units, never half a surrogate pair.
 */
export function responseExcerpt(bytes: Uint8Array, maxChars: number): string {
  // `stream`: a sequence cut at the end is held back (dropped), not turned into U+FFFD.
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes, { stream: true });
  const storable = text.replaceAll('\u0000', '');
  if (storable.length <= maxChars) return storable;
  const last = storable.charCodeAt(maxChars - 1);
  return storable.slice(0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars);
}
