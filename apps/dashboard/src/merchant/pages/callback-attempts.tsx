import { Alert, Button, Code, Paper, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format';
import { useCan } from '../../shared/session/session.context';
import { EmptyText, FormError } from '../../shared/ui/states';
import type { CallbackAttempt } from '../merchant.api';

/** A transaction's callback attempts (oldest first) and its resend, the same for pay-ins and payouts. */
export function CallbackAttempts({
  attempts,
  onResend,
}: {
  attempts: CallbackAttempt[];
  /** Queues the latest callback again; the caller reloads the page's data */
  onResend(): Promise<unknown>;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [resent, setResent] = useState(false);
  const can = useCan();
  const resend = async () => {
    setBusy(true);
    setError(null);
    setResent(false);
    try {
      await onResend();
      setResent(true);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" radius="md" component="section">
      <Title order={2} size="h4" id="attempts-title" mb="sm">
        {t('payouts.attempts')}
      </Title>
      <Table.ScrollContainer minWidth={600}>
        <Table striped aria-labelledby="attempts-title">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('payouts.attemptTime')}</Table.Th>
              <Table.Th scope="col">{t('payouts.httpStatus')}</Table.Th>
              <Table.Th scope="col">{t('payouts.latency')}</Table.Th>
              <Table.Th scope="col">{t('payouts.response')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attempts.map((a, i) => (
              <Table.Tr key={`${a.at}-${i}`}>
                <Table.Td>{formatDateTime(a.at, i18n.language)}</Table.Td>
                <Table.Td>{a.httpStatus ?? t('payouts.noResponse')}</Table.Td>
                <Table.Td>{a.latencyMs === null ? '–' : t('payouts.latencyMs', { ms: a.latencyMs })}</Table.Td>
                <Table.Td>{a.response ? <Code style={{ wordBreak: 'break-all' }}>{a.response}</Code> : '–'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {attempts.length === 0 && <EmptyText>{t('payouts.noAttempts')}</EmptyText>}
      <Stack mt="md" align="flex-start">
        {can('webhooks:manage') && (
          <Button onClick={resend} loading={busy}>
            {t('payouts.resend')}
          </Button>
        )}
        {resent && (
          <Alert color="teal" role="status">
            {t('payouts.resent')}
          </Alert>
        )}
        <FormError error={error} />
      </Stack>
    </Paper>
  );
}
