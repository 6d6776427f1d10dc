import { createHash, randomInt } from 'node:crypto';
import { SnapError } from './auth';

/** `{value:"150000.00",currency:"IDR"}` to sen; 400xx01 naming the field when it is not one. */
export function amountOf(field: string, amount: unknown): bigint {
  const a = amount as { value?: unknown; currency?: unknown } | undefined;
  if (!a || typeof a !== 'object') throw new SnapError(400, '02', `Invalid Mandatory Field ${field}`);
  if (typeof a.value !== 'string' || !/^\d{1,16}\.\d{2}$/.test(a.value))
    throw new SnapError(400, '01', `Invalid Field Format ${field}.value`);
  if (a.currency !== 'IDR') throw new SnapError(400, '01', `Invalid Field Format ${field}.currency`);
  const [whole, cents] = a.value.split('.');
  return BigInt(whole) * 100n + BigInt(cents);
}

export function money(sen: bigint): { value: string; currency: string } {
  return { value: `${sen / 100n}.${(sen % 100n).toString().padStart(2, '0')}`, currency: 'IDR' };
}

/** A mandatory string field (400xx02 when absent, 400xx01 when too long or not matching). */
export function text(body: Record<string, unknown>, field: string, max: number, pattern?: RegExp): string {
  const v = body[field];
  if (v === undefined || v === null || v === '') throw new SnapError(400, '02', `Invalid Mandatory Field ${field}`);
  if (typeof v !== 'string' || v.length > max || (pattern && !pattern.test(v)))
    throw new SnapError(400, '01', `Invalid Field Format ${field}`);
  return v;
}

export function optionalText(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > max) throw new SnapError(400, '01', `Invalid Field Format ${field}`);
  return v;
}

/** `yyyy-MM-ddTHH:mm:ss+07:00`, Jakarta time. */
export function jakartaTime(at: Date): string {
  return `${new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(0, 19)}+07:00`;
}

/** A provider reference: letters and digits, unique enough for a simulator's lifetime. */
export function referenceNo(prefix: string): string {
  return `${prefix}${Date.now().toString(36).toUpperCase()}${String(randomInt(0, 1e9)).padStart(9, '0')}`;
}

const GIVEN = [
  'AHMAD',
  'BAMBANG',
  'CITRA',
  'DEDI',
  'EVI',
  'FAJAR',
  'GITA',
  'HADI',
  'INDAH',
  'JOKO',
  'KARTIKA',
  'LUKMAN',
];
const FAMILY = ['SUHARTO', 'TANJUNG', 'UTOMO', 'WIBOWO', 'YULIANTO', 'ZULKARNAEN', 'MARPAUNG', 'LUBIS'];

/** The holder of an account, the same every time for one bank and number, as a bank's would be. */
export function holderName(bankCode: string, accountNo: string): string {
  const d = createHash('sha1').update(`${bankCode}/${accountNo}`).digest();
  return `${GIVEN[d[0] % GIVEN.length]} ${FAMILY[d[1] % FAMILY.length]}`;
}

/**
 * The documented magic beneficiary accounts (`0000000NNN` for banks, `0800000NNN` for e-wallets):
 * the scenario of NNN, or `normal`.
 */
export const MAGIC = {
  '404': 'unknown_account',
  '403': 'blocked_account',
  '422': 'do_not_honor',
  '408': 'executed_no_answer',
  '500': 'in_progress_then_failed',
  '202': 'in_progress_then_success',
  '502': 'executed_then_500',
  '504': 'executed_then_504',
  '414': 'insufficient_funds',
  '429': 'rate_limited_twice',
  '407': 'status_lags',
} as const;
export type Scenario = (typeof MAGIC)[keyof typeof MAGIC] | 'normal';

export function scenarioOf(accountNo: string): Scenario {
  const m = /^(?:0000000|0800000)(\d{3})$/.exec(accountNo);
  return (m && MAGIC[m[1] as keyof typeof MAGIC]) || 'normal';
}

function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as EMVCo's tag 63 carries it. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** A dynamic QRIS (EMVCo MPM) payload for one payment, CRC included. */
export function qrisContent(q: {
  merchantId: string;
  merchantName: string;
  amount: bigint;
  reference: string;
}): string {
  const rupiah = q.amount % 100n === 0n ? `${q.amount / 100n}` : money(q.amount).value;
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'ID.CO.QRIS.WWW') + tlv('01', q.merchantId.slice(0, 19)) + tlv('03', 'UMI')) +
    tlv('52', '5999') +
    tlv('53', '360') +
    tlv('54', rupiah) +
    tlv('58', 'ID') +
    tlv('59', q.merchantName.slice(0, 25)) +
    tlv('60', 'JAKARTA') +
    tlv('62', tlv('05', q.reference.slice(0, 25))) +
    '6304';
  return body + crc16(body);
}
