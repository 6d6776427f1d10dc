import { formatAmountString, type Minor } from '../money/money';
import { crc16CcittFalse } from './crc16';
import { decodeTlv, encodeTlv, QrisFormatError, type Tlv } from './tlv';

export const QRIS_GUID = 'ID.CO.QRIS.WWW';

/** What a dynamic merchant-presented QRIS carries. */
export interface QrisPayment {
  /** National Merchant ID, e.g. ID1020021181745 */
  nmid: string;
  /** Merchant criteria: UMI micro, UKE small, UME medium, UBE large, URE regular */
  merchantCriteria: 'UMI' | 'UKE' | 'UME' | 'UBE' | 'URE';
  /** ISO 18245 merchant category code, 4 digits */
  mcc: string;
  amount: Minor;
  /** Up to 25 characters (EMVCo tag 59) */
  merchantName: string;
  /** Up to 15 characters (tag 60) */
  merchantCity: string;
  postalCode?: string;
  /** Our reference (platformTrxId), up to 25 characters: additional data tag 62, sub-tag 05 */
  reference: string;
}

/** Trims and cuts to the EMVCo limit, replacing characters a QR reader may reject. */
export function fitField(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .replace(/[^\x20-\x7E]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

/**
 * Encodes a dynamic (point of initiation 12) QRIS: payload format 01, merchant account
 * information in tag 51 under the QRIS GUID with NMID and criteria, MCC, currency 360 (IDR),
 * amount, country ID, name, city, optional postal code, reference in tag 62, and tag 63 with
 * the CRC-16/CCITT-FALSE of everything before it (including "6304").
 */
export function encodeQris(p: QrisPayment): string {
  if (!/^ID\d{10,13}$/.test(p.nmid)) throw new QrisFormatError('nmid must be ID followed by 10 to 13 digits');
  if (!/^\d{4}$/.test(p.mcc)) throw new QrisFormatError('mcc must be 4 digits');
  if (p.amount <= 0n) throw new QrisFormatError('amount must be positive');
  const name = fitField(p.merchantName, 25);
  const city = fitField(p.merchantCity, 15);
  if (!name || !city) throw new QrisFormatError('merchant name and city must not be empty');
  if (!/^[\x21-\x7E]{1,25}$/.test(p.reference))
    throw new QrisFormatError('reference must be 1 to 25 printable characters');
  const body = [
    encodeTlv('00', '01'),
    encodeTlv('01', '12'),
    encodeTlv('51', encodeTlv('00', QRIS_GUID) + encodeTlv('02', p.nmid) + encodeTlv('03', p.merchantCriteria)),
    encodeTlv('52', p.mcc),
    encodeTlv('53', '360'),
    encodeTlv('54', formatAmountString(p.amount)),
    encodeTlv('58', 'ID'),
    encodeTlv('59', name),
    encodeTlv('60', city),
    ...(p.postalCode ? [encodeTlv('61', p.postalCode)] : []),
    encodeTlv('62', encodeTlv('05', p.reference)),
  ].join('');
  const withCrcTag = `${body}6304`;
  return withCrcTag + crc16CcittFalse(withCrcTag);
}

/** Checks tag 63 against the CRC of everything before it. */
export function hasValidCrc(payload: string): boolean {
  const at = payload.length - 8;
  return (
    at > 0 &&
    payload.slice(at, at + 4) === '6304' &&
    crc16CcittFalse(payload.slice(0, at + 4)) === payload.slice(at + 4).toUpperCase()
  );
}

/** Parses a payload produced by encodeQris (or any dynamic QRIS with tag 51), verifying the CRC. */
export function decodeQris(payload: string): QrisPayment {
  if (!hasValidCrc(payload)) throw new QrisFormatError('CRC does not match');
  const top = new Map(decodeTlv(payload).map((t: Tlv) => [t.tag, t.value]));
  const need = (tag: string) => {
    const v = top.get(tag);
    if (v === undefined) throw new QrisFormatError(`tag ${tag} missing`);
    return v;
  };
  if (need('00') !== '01') throw new QrisFormatError('payload format indicator must be 01');
  if (need('53') !== '360') throw new QrisFormatError('currency must be 360');
  const account = new Map(decodeTlv(need('51')).map((t) => [t.tag, t.value]));
  if (account.get('00') !== QRIS_GUID) throw new QrisFormatError(`tag 51 must carry ${QRIS_GUID}`);
  const additional = new Map(decodeTlv(need('62')).map((t) => [t.tag, t.value]));
  const [whole, frac = ''] = need('54').split('.');
  return {
    nmid: account.get('02') ?? '',
    merchantCriteria: (account.get('03') ?? 'UMI') as QrisPayment['merchantCriteria'],
    mcc: need('52'),
    amount: BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0') || '0'),
    merchantName: need('59'),
    merchantCity: need('60'),
    ...(top.has('61') ? { postalCode: top.get('61') } : {}),
    reference: additional.get('05') ?? '',
  };
}
