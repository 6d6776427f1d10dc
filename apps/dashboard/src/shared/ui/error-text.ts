import type { TFunction } from 'i18next';
import { isApiError } from '../api/api-error';

/**
 * A translated message for an API error: the code's text when we have one, the server's message
 * otherwise. On the sign-in and set-password pages (`signIn`), a 429 is the client's sign-in
 * limit, not the merchant's API budget.
 */
export function errorText(t: TFunction, error: unknown, signIn = false): string {
  if (isApiError(error)) {
    if (signIn && error.code === 'RATE_LIMITED') {
      const seconds = error.retryAfterSeconds ?? 1;
      return seconds < 120
        ? t('errors.SIGN_IN_THROTTLED', { seconds })
        : t('errors.SIGN_IN_THROTTLED_MINUTES', { minutes: Math.ceil(seconds / 60) });
    }
    if (error.code === 'ACCOUNT_LOCKED') {
      return error.retryAfterSeconds
        ? t('errors.ACCOUNT_LOCKED', { minutes: Math.ceil(error.retryAfterSeconds / 60) })
        : t('errors.ACCOUNT_LOCKED_NO_TIME');
    }
    // English passes the server's message through ({{message}}); Bahasa Indonesia says the code in its words.
    const key = `errors.${error.code}`;
    return t(key, { defaultValue: error.message, message: error.message });
  }
  return error instanceof Error ? error.message : String(error);
}
