import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SetPasswordBody } from '@pay/contracts/dashboard';
import { Link, useParams } from 'react-router';
import { useApi } from '../session/session.context';
import { FormError, fieldError } from '../ui/states';
import { PublicLayout } from './public-layout';

const MIN = 12;
const MAX = 128;

/** `#/set-password/<token>`: the one-time link an operator made. */
export default function SetPasswordPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const api = useApi();
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  const passwordProblem =
    password.length < MIN
      ? t('errors.passwordTooShort')
      : password.length > MAX
        ? t('errors.passwordTooLong')
        : undefined;
  const confirmProblem = confirm !== password ? t('errors.passwordsDiffer') : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (passwordProblem || confirmProblem) return;
    setBusy(true);
    setError(null);
    try {
      await api.post('/password', { token, password } satisfies SetPasswordBody);
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout titleKey={titleKey} heading={t('auth.setPasswordTitle')}>
      {done ? (
        <Stack>
          <Alert color="teal" role="status">
            {t('auth.passwordSet')}
          </Alert>
          <Anchor component={Link} to="/sign-in">
            {t('auth.goToSignIn')}
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <FormError error={error} fields={['password']} signIn />
            <TextInput
              type="password"
              label={t('auth.newPassword')}
              description={t('auth.passwordHint')}
              autoComplete="new-password"
              required
              minLength={MIN}
              maxLength={MAX}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={(checked && passwordProblem) || fieldError(error, 'password')}
            />
            <TextInput
              type="password"
              label={t('auth.confirmPassword')}
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(e) => setConfirm(e.currentTarget.value)}
              error={checked && confirmProblem}
            />
            <Button type="submit" loading={busy}>
              {t('auth.setPassword')}
            </Button>
          </Stack>
        </form>
      )}
    </PublicLayout>
  );
}
