import { Anchor, Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { isFiltered, ListFilters, NO_FILTERS, type Filters } from '../../shared/ui/list-filters';
import { PageTitle } from '../../shared/ui/page-title';
import { DownloadCsv } from '../../shared/ui/download-csv';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import { useCan } from '../../shared/session/session.context';
import { useMerchantApi } from '../use-merchant-api';

export default function PayoutsPage() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const can = useCan();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const list = useCursorList((cursor) => api.payouts(filters, cursor), [api, filters]);

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('payouts.title')}</PageTitle>
        <Group>
          {can('payouts:write') && (
            <Button component={Link} to="/payouts/batch" variant="default">
              {t('batches.open')}
            </Button>
          )}
          {can('reports:read') && <DownloadCsv href={api.csvUrl('payouts', filters)} />}
        </Group>
      </Group>
      <ListFilters
        statuses={['pending', 'success', 'failed', 'reversed']}
        searchLabel={t('payouts.search')}
        onApply={setFilters}
      />
      <DataTable
        label={t('payouts.tableLabel')}
        minWidth={820}
        rows={list.items}
        rowKey={(p) => p.merchantTrxId}
        columns={[
          {
            header: t('payouts.merchantTrxId'),
            cell: (p) => (
              <Anchor component={Link} to={`/payouts/${encodeURIComponent(p.merchantTrxId)}`}>
                {p.merchantTrxId}
              </Anchor>
            ),
          },
          {
            header: t('payouts.account'),
            cell: (p) => (
              <>
                {p.accountName} {p.accountNo && `(${p.bankCode} ${p.accountNo})`}
              </>
            ),
          },
          { header: t('common.amount'), cell: (p) => formatRupiah(p.amount) },
          { header: t('payouts.total'), cell: (p) => formatRupiah(p.totalAmount) },
          { header: t('common.status'), cell: (p) => <StatusBadge status={p.status} /> },
          { header: t('payouts.createdAt'), cell: (p) => formatDateTime(p.createdAt, i18n.language) },
        ]}
      />
      <ListFooter list={list} emptyText={t(isFiltered(filters) ? 'payouts.empty' : 'payouts.none')} />
    </>
  );
}
