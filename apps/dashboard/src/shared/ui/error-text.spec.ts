import type { TFunction } from 'i18next';
import { ApiError } from '../api/api-error';
import type { ApiErrorCode } from '@pay/contracts/dashboard';
import { en } from '../i18n/en';
import { id } from '../i18n/id';
import { errorText } from './error-text';

/** A language's strings with their {{placeholders}} filled in, as i18next does. */
const translator = (strings: object) =>
  ((key: string, values: Record<string, unknown> = {}) => {
    const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], strings);
    const found = typeof text === 'string' ? text : String(values.defaultValue ?? key);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
  }) as unknown as TFunction;
const t = translator(en);

describe('errorText on the sign-in and set-password pages', () => {
  const throttled = (seconds: number | null) =>
    new ApiError(429, 'RATE_LIMITED', 'Too many sign-in attempts', [], seconds);

  it("says how long a throttled sign-in waits, in seconds and then minutes, not the merchant API's budget", () => {
    expect(errorText(t, throttled(4), true)).toBe('Too many sign-in attempts. Wait 4 seconds and try again.');
    expect(errorText(t, throttled(900), true)).toBe('Too many sign-in attempts. Wait 15 minutes and try again.');
    expect(errorText(t, throttled(null), true)).toBe('Too many sign-in attempts. Wait 1 seconds and try again.');
  });

  it("elsewhere a 429 is still the merchant's budget", () => {
    expect(errorText(t, throttled(4))).toBe(en.errors.RATE_LIMITED);
  });
});

describe('errorText of the API error codes', () => {
  it('has every code in both languages: English keeps the server message, Bahasa Indonesia says it in its words', () => {
    // Every code has its entry in both languages: a code added to the API and not here does not type-check.
    const everyCode: Record<`${ApiErrorCode}`, string>[] = [en.errors, id.errors];
    expect(everyCode).toHaveLength(2);
    const refused = new ApiError(
      422,
      'INSUFFICIENT_BALANCE',
      'Insufficient balance: available 0.00, required 12500.00 (amount + fee)',
    );
    expect(errorText(t, refused)).toBe('Insufficient balance: available 0.00, required 12500.00 (amount + fee)');
    expect(errorText(translator(id), refused)).toBe(
      'Saldo tersedia tidak cukup (Insufficient balance: available 0.00, required 12500.00 (amount + fee)).',
    );
    expect(errorText(translator(id), new ApiError(404, 'TRANSACTION_NOT_FOUND', 'Transaction not found'))).toBe(
      'Transaksi tidak ditemukan.',
    );
  });
});
