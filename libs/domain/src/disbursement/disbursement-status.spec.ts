import { formatJakartaDateTime } from '../time/jakarta-time';
import { canTransition, chargedFee, publicStatus } from './disbursement-status';
import { accountNumberProblem, findBank } from '../banks/bank-directory';

describe('disbursement status', () => {
  it('allows only the documented transitions', () => {
    expect(canTransition('funding', 'pending')).toBe(true);
    expect(canTransition('funding', 'refused')).toBe(true);
    expect(canTransition('pending', 'success')).toBe(true);
    expect(canTransition('pending', 'failed')).toBe(true);
    expect(canTransition('success', 'failed')).toBe(false);
    expect(canTransition('failed', 'success')).toBe(false);
    expect(canTransition('refused', 'pending')).toBe(false);
    expect(canTransition('funding', 'success')).toBe(false);
    expect(canTransition('success', 'reversed')).toBe(true);
    expect(canTransition('pending', 'reversed')).toBe(false);
    expect(canTransition('failed', 'reversed')).toBe(false);
    expect(canTransition('reversed', 'success')).toBe(false);
  });

  it('shows merchants pending, success or failed, and hides refused attempts', () => {
    expect(publicStatus('funding')).toBe('pending');
    expect(publicStatus('pending')).toBe('pending');
    expect(publicStatus('refused')).toBeNull();
    expect(publicStatus('reversed')).toBe('reversed');
  });

  it('charges no fee on failure, nor once reversed (amount and fee given back)', () => {
    expect(chargedFee('failed', 250000n)).toBe(0n);
    expect(chargedFee('reversed', 250000n)).toBe(0n);
    expect(chargedFee('success', 250000n)).toBe(250000n);
    expect(chargedFee('pending', 250000n)).toBe(250000n);
  });

  it('formats success_at in Asia/Jakarta (UTC+7)', () => {
    expect(formatJakartaDateTime(new Date('2026-11-22T17:30:05.123Z'))).toBe('2026-11-23 00:30:05');
  });
});

describe('bank directory', () => {
  it('knows the required banks and e-wallets, exact codes only', () => {
    for (const code of [
      'BCA',
      'BNI',
      'BRI',
      'MANDIRI',
      'PERMATA',
      'CIMB',
      'BSI',
      'DANAMON',
      'DANA',
      'OVO',
      'GOPAY',
      'SHOPEEPAY',
      'LINKAJA',
    ]) {
      expect(findBank(code)?.code).toBe(code);
    }
    expect(findBank('XYZ')).toBeUndefined();
    expect(findBank('bca')).toBeUndefined();
  });

  it('checks account number formats per kind', () => {
    const bca = findBank('BCA');
    const ovo = findBank('OVO');
    if (!bca || !ovo) throw new Error('directory incomplete');
    expect(accountNumberProblem(bca, '1234567890')).toBeNull();
    expect(accountNumberProblem(bca, '12ab')).toMatch(/digits/);
    expect(accountNumberProblem(ovo, '081234567890')).toBeNull();
    expect(accountNumberProblem(ovo, '1234567890')).toMatch(/mobile/);
  });
});
