/** One EMVCo data object: two-digit tag, two-digit length, value. Lengths count characters. */
export interface Tlv {
  tag: string;
  value: string;
}

export class QrisFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QrisFormatError';
  }
}

export function encodeTlv(tag: string, value: string): string {
  const length = [...value].length;
  if (!/^\d{2}$/.test(tag)) throw new QrisFormatError(`tag ${tag} must be two digits`);
  if (length === 0 || length > 99) throw new QrisFormatError(`tag ${tag}: value length ${length} outside 1..99`);
  return `${tag}${String(length).padStart(2, '0')}${value}`;
}

/** Splits a TLV string into its data objects, in order; throws on a malformed one. */
export function decodeTlv(text: string): Tlv[] {
  const chars = [...text];
  const out: Tlv[] = [];
  let i = 0;
  while (i < chars.length) {
    const tag = chars.slice(i, i + 2).join('');
    const lengthText = chars.slice(i + 2, i + 4).join('');
    if (!/^\d{2}$/.test(tag) || !/^\d{2}$/.test(lengthText))
      throw new QrisFormatError(`malformed data object at position ${i}`);
    const length = Number(lengthText);
    if (i + 4 + length > chars.length) throw new QrisFormatError(`tag ${tag} runs past the end of the payload`);
    out.push({ tag, value: chars.slice(i + 4, i + 4 + length).join('') });
    i += 4 + length;
  }
  return out;
}
