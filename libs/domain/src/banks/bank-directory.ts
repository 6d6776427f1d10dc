/** Banks and e-wallets a disbursement can go to. Codes are what merchants send as `bankCode`. */
export type BankKind = 'bank' | 'ewallet';

export interface BankInfo {
  code: string;
  name: string;
  kind: BankKind;
}

export const BANKS: readonly BankInfo[] = [
  { code: 'BCA', name: 'Bank Central Asia', kind: 'bank' },
  { code: 'BNI', name: 'Bank Negara Indonesia', kind: 'bank' },
  { code: 'BRI', name: 'Bank Rakyat Indonesia', kind: 'bank' },
  { code: 'MANDIRI', name: 'Bank Mandiri', kind: 'bank' },
  { code: 'PERMATA', name: 'Bank Permata', kind: 'bank' },
  { code: 'CIMB', name: 'CIMB Niaga', kind: 'bank' },
  { code: 'BSI', name: 'Bank Syariah Indonesia', kind: 'bank' },
  { code: 'DANAMON', name: 'Bank Danamon', kind: 'bank' },
  { code: 'BTN', name: 'Bank Tabungan Negara', kind: 'bank' },
  { code: 'OCBC', name: 'OCBC NISP', kind: 'bank' },
  { code: 'DANA', name: 'DANA', kind: 'ewallet' },
  { code: 'OVO', name: 'OVO', kind: 'ewallet' },
  { code: 'GOPAY', name: 'GoPay', kind: 'ewallet' },
  { code: 'SHOPEEPAY', name: 'ShopeePay', kind: 'ewallet' },
  { code: 'LINKAJA', name: 'LinkAja', kind: 'ewallet' },
];

const BY_CODE = new Map(BANKS.map((b) => [b.code, b]));

/** Codes are matched exactly (upper case), as merchants must send them. */
export function findBank(code: string): BankInfo | undefined {
  return BY_CODE.get(code);
}

/**
 * Bank accounts are 6 to 20 digits; e-wallet accounts are the holder's Indonesian mobile
 * number (08…, 10 to 13 digits). Returns the problem, or null when the number is well formed.
 */
export function accountNumberProblem(bank: BankInfo, accountNo: string): string | null {
  if (bank.kind === 'bank') return /^\d{6,20}$/.test(accountNo) ? null : 'must be 6 to 20 digits for a bank account';
  return /^08\d{8,11}$/.test(accountNo) ? null : 'must be the mobile number of the e-wallet (08…, 10 to 13 digits)';
}
