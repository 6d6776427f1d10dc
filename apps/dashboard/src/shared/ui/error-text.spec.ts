import type { TFunction } from 'i18next';
import { ApiError } from '../api/api-error';
import { en } from '../i18n/en';
import { errorText } from './error-text';

/** The English strings with their {{placeholders}} filled in, as i18next does. */
const t = ((key: string, values: Record<string, unknown> = {}) => {
  const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], en);
  const found = typeof text === 'string' ? text : String(values.defaultValue ?? key);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}) as unknown as TFunction;

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
