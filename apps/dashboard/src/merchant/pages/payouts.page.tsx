import { Anchor, Button, Table } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { ListFilters, NO_FILTERS, type Filters } from '../../shared/ui/list-filters';
import { PageTitle } from '../../shared/ui/page-title';
import { EmptyText, ErrorState, LoadingState } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';

export default function PayoutsPage() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const list = useCursorList((cursor) => api.payouts(filters, cursor), [api, filters]);

  return (
    <>
      <PageTitle>{t('payouts.title')}</PageTitle>
      <ListFilters statuses={['pending', 'success', 'failed']} searchLabel={t('payouts.search')} onApply={setFilters} />
      {list.error !== null && <ErrorState error={list.error} onRetry={list.reload} />}
      <Table.ScrollContainer minWidth={820}>
        <Table striped highlightOnHover aria-label={t('payouts.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('payouts.merchantTrxId')}</Table.Th>
              <Table.Th scope="col">{t('payouts.account')}</Table.Th>
              <Table.Th scope="col">{t('common.amount')}</Table.Th>
              <Table.Th scope="col">{t('payouts.total')}</Table.Th>
              <Table.Th scope="col">{t('common.status')}</Table.Th>
              <Table.Th scope="col">{t('payouts.createdAt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.items.map((p) => (
              <Table.Tr key={p.merchantTrxId}>
                <Table.Td>
                  <Anchor component={Link} to={`/payouts/${encodeURIComponent(p.merchantTrxId)}`}>
                    {p.merchantTrxId}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {p.accountName} {p.accountNo && `(${p.bankCode} ${p.accountNo})`}
                </Table.Td>
                <Table.Td>{formatRupiah(p.amount)}</Table.Td>
                <Table.Td>{formatRupiah(p.totalAmount)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} />
                </Table.Td>
                <Table.Td>{formatDateTime(p.createdAt, i18n.language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.loading && <LoadingState />}
      {!list.loading && list.error === null && list.items.length === 0 && <EmptyText>{t('payouts.empty')}</EmptyText>}
      {list.nextCursor && !list.loading && (
        <Button variant="outline" mt="md" onClick={list.loadMore}>
          {t('common.loadMore')}
        </Button>
      )}
    </>
  );
}
