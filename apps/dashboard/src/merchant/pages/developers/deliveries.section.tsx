import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/format';
import { Section } from '../../../shared/ui/section';
import { EmptyText, ErrorState, LoadingState } from '../../../shared/ui/states';
import { StatusBadge } from '../../../shared/ui/status-badge';
import { useAsync } from '../../../shared/ui/use-async';
import { useMerchantApi } from '../../use-merchant-api';

export function DeliveriesSection() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const { data, error, loading, reload } = useAsync(() => api.deliveries(), [api]);
  return (
    <Section title={t('developers.deliveries')}>
      {error !== null && <ErrorState error={error} onRetry={reload} />}
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
