import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isApiError } from '../api/api-error';
import { useSessionContext } from '../session/session.context';
import { FormError, fieldError } from '../ui/states';

const TABBABLE =
  'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

/**
 * Tab and Shift+Tab cycle inside this dialog. It may open over another dialog (a "Revoke token?"
 * whose call asked for the step-up), whose focus trap listens on the document and would pull
 * the focus back to itself: the key stops here.
 */
function keepTabInside(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'Tab') return;
  e.nativeEvent.stopPropagation();
  const items = Array.from(e.currentTarget.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (el) => el.offsetParent !== null || el === document.activeElement,
  );
  if (items.length === 0) return;
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : at === -1 || at === items.length - 1 ? 0 : at + 1;
  e.preventDefault();
  items[next].focus();
}

/**
 * Step-up (decision 0023): shown while a call waits on 401 REAUTH_REQUIRED. The password (and the
 * authentication code, when two-factor sign-in is on) goes to POST .../session/confirm; once it is
 * accepted the waiting calls are sent again. Cancel: they fail, nothing changed. Wrong answers count
 * towards the lockout as at sign-in, and are shown here.
 */
export function ReauthDialog() {
  const { t } = useTranslation();
  const { api, state, reauthPending, settleReauth } = useSessionContext();
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const opened = reauthPending && state.status === 'signed-in';
  const needTotp = state.status === 'signed-in' && state.session.user.totpEnabled;

  // Each prompt starts empty: a password must not linger in the page once used.
  useEffect(() => {
    if (!opened) {
      setPassword('');
      setTotp('');
      setError(null);
    }
  }, [opened]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // An empty answer would still count as a failed attempt on the server: ask for it here.
    const missing = [...(password === '' ? ['password'] : []), ...(needTotp && totp.trim() === '' ? ['totp'] : [])];
    if (missing.length > 0) {
      setError(
        new ApiError(
          0,
          'VALIDATION_ERROR',
          t('errors.required'),
          missing.map((field) => ({ field, message: t('errors.required') })),
        ),
      );
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.post('/session/confirm', { password, ...(needTotp && totp.trim() ? { totp: totp.trim() } : {}) });
      settleReauth(true);
    } catch (err) {
      // Sign-in's answer names the email; here only the password or the code can be wrong.
      if (isApiError(err, 'SIGN_IN_FAILED')) setError(new ApiError(err.httpStatus, 'REAUTH_FAILED', err.message));
      else if (!isApiError(err, 'SESSION_REQUIRED')) setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={() => settleReauth(false)}
      title={t('reauth.title')}
      zIndex={400}
      onKeyDown={keepTabInside}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text>{t('reauth.intro')}</Text>
          <FormError error={error} fields={['password', 'totp']} />
          <TextInput
            type="password"
            label={t('auth.password')}
            autoComplete="current-password"
            required
            data-autofocus
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(error, 'password')}
          />
          {needTotp && (
            <TextInput
              label={t('auth.totp')}
              description={t('auth.totpHint')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              value={totp}
              onChange={(e) => setTotp(e.currentTarget.value)}
              error={fieldError(error, 'totp')}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => settleReauth(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('reauth.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
