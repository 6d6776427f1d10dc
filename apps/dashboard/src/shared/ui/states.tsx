import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { REAUTH_CANCELLED } from '../api/api-client';
import { isApiError } from '../api/api-error';
import { errorText } from './error-text';

export function LoadingState() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden="true" />
        <Text>{t('common.loading')}</Text>
      </Group>
    </Center>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t('common.errorTitle')} role="alert">
      <Text>{errorText(t, error)}</Text>
      {onRetry && (
        <Button mt="sm" variant="outline" color="red" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </Alert>
  );
}

export function EmptyText({ children }: { children: string }) {
  return (
    <Text py="md" c="gray.8">
      {children}
    </Text>
  );
}

/** A form's error that belongs to no one field (`signIn`: see errorText). */
export function FormError({
  error,
  fields = [],
  signIn = false,
}: {
  error: unknown;
  fields?: string[];
  signIn?: boolean;
}) {
  const { t } = useTranslation();
  // A step-up the user cancelled changed nothing and needs no message.
  if (!error || isApiError(error, REAUTH_CANCELLED)) return null;
  // When every problem is shown next to its field, one general line is enough.
  const onlyFieldErrors =
    isApiError(error) &&
    error.errors.length > 0 &&
    error.errors.every((e) => fields.some((f) => e.field === f || e.field.endsWith(`.${f}`)));
  return (
    <Alert color="red" role="alert">
      {onlyFieldErrors ? t('errors.VALIDATION_ERROR') : errorText(t, error, signIn)}
    </Alert>
  );
}

/** The message for one field from a failed call's `errors`, for an input's `error` prop. */
export function fieldError(error: unknown, field: string): string | undefined {
  return isApiError(error) ? error.fieldMessage(field) : undefined;
}

/** "Saved." once a form's change went through (role status: read out, found by tests). */
export function Saved({ show }: { show: boolean }) {
  const { t } = useTranslation();
  return show ? (
    <Alert color="teal" role="status" py="xs">
      {t('common.saved')}
    </Alert>
  ) : null;
}
