import { Alert, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/format';
import { useCan } from '../../../shared/session/session.context';
import { Section } from '../../../shared/ui/section';
import { EmptyText, ErrorState, FormError, LoadingState } from '../../../shared/ui/states';
import { StatusBadge } from '../../../shared/ui/status-badge';
import { useAsync } from '../../../shared/ui/use-async';
import { useMerchantApi } from '../../use-merchant-api';

export function DeliveriesSection() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const { data, error, loading, reload } = useAsync(() => api.deliveries(), [api]);
  const can = useCan();
  const [busy, setBusy] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const [resendError, setResendError] = useState<unknown>(null);
  // A failed or dead-lettered delivery sent again (same event id and body); the list then shows it pending.
  const resend = async (id: string) => {
    setBusy(id);
    setResent(false);
    setResendError(null);
    try {
      await api.resendDelivery(id);
      setResent(true);
      reload();
    } catch (e) {
      setResendError(e);
    } finally {
      setBusy(null);
    }
  };
  const resendable = (status: string | null) => status === 'failed' || status === 'dead';
  return (
    <Section title={t('developers.deliveries')}>
      <Text size="sm" c="dimmed" mb="sm">
        {t('developers.deliveriesIntro')}
      </Text>
      {error !== null && <ErrorState error={error} onRetry={reload} />}
      {resent && (
        <Alert color="teal" role="status" mb="sm">
          {t('developers.deliveryResent')}
        </Alert>
      )}
      <FormError error={resendError} />
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label={t('developers.deliveriesLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('payouts.createdAt')}</Table.Th>
              <Table.Th scope="col">{t('developers.kind')}</Table.Th>
              <Table.Th scope="col">{t('payouts.merchantTrxId')}</Table.Th>
              <Table.Th scope="col">{t('developers.url')}</Table.Th>
              <Table.Th scope="col">{t('developers.attempts')}</Table.Th>
              <Table.Th scope="col">{t('developers.lastStatus')}</Table.Th>
              <Table.Th scope="col">{t('common.status')}</Table.Th>
              {can('webhooks:manage') && (
                <Table.Th scope="col">
                  <VisuallyHidden>{t('developers.resendDelivery')}</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data ?? []).map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>{formatDateTime(d.createdAt, i18n.language)}</Table.Td>
                <Table.Td>{t(`developers.kinds.${d.kind}`, { defaultValue: d.kind })}</Table.Td>
                <Table.Td>{d.reference}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{d.url}</Table.Td>
                <Table.Td>{d.attempts}</Table.Td>
                <Table.Td>{d.lastHttpStatus ?? '–'}</Table.Td>
                <Table.Td>{d.status && <StatusBadge status={d.status} />}</Table.Td>
                {can('webhooks:manage') && (
                  <Table.Td>
                    {resendable(d.status) && (
                      <Button
                        size="xs"
                        variant="light"
                        loading={busy === d.id}
                        onClick={() => void resend(d.id)}
                        aria-label={t('developers.resendDeliveryLabel', { eventId: d.reference })}
                      >
                        {t('developers.resendDelivery')}
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {loading && <LoadingState />}
      {data && data.length === 0 && <EmptyText>{t('developers.noDeliveries')}</EmptyText>}
    </Section>
  );
}
