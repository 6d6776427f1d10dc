import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionView, SignInBody } from '@pay/contracts/dashboard';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { isApiError } from '../api/api-error';
import { useSessionContext } from '../session/session.context';
import { errorText } from '../ui/error-text';
import { LoadingState, fieldError } from '../ui/states';
import { PublicLayout } from './public-layout';

/** Email and password; the authentication code once the API answers TOTP_REQUIRED. */
export default function SignInPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { api, state, signedIn } = useSessionContext();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string; expired?: boolean } | null) ?? {};
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needTotp, setNeedTotp] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'signed-in')
    return <Navigate to={from.from && from.from !== '/sign-in' ? from.from : '/'} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: SignInBody = { email: email.trim(), password, ...(needTotp && totp ? { totp: totp.trim() } : {}) };
      const session = await api.post<SessionView>('/session', body);
      signedIn(session);
      navigate(from.from && from.from !== '/sign-in' ? from.from : '/', { replace: true });
    } catch (err) {
      if (isApiError(err, 'TOTP_REQUIRED')) setNeedTotp(true);
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout titleKey={titleKey} heading={t('auth.signInTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {from.expired && !error && <Alert color="blue">{t('errors.SESSION_REQUIRED')}</Alert>}
          {error !== null && (
            <Alert color={isApiError(error, 'TOTP_REQUIRED') ? 'blue' : 'red'} role="alert">
              {errorText(t, error, true)}
            </Alert>
          )}
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(error, 'email')}
          />
          <TextInput
            type="password"
            label={t('auth.password')}
            autoComplete="current-password"
            required
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
              autoFocus
              value={totp}
              onChange={(e) => setTotp(e.currentTarget.value)}
              error={fieldError(error, 'totp')}
            />
          )}
          <Button type="submit" loading={busy}>
            {t('auth.signIn')}
          </Button>
        </Stack>
      </form>
    </PublicLayout>
  );
}
