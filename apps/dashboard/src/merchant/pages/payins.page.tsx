import { Anchor, Button, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { isFiltered, ListFilters, NO_FILTERS, type Filters } from '../../shared/ui/list-filters';
import { PageTitle } from '../../shared/ui/page-title';
import { DownloadCsv } from '../../shared/ui/download-csv';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import { useCan } from '../../shared/session/session.context';
import { useMerchantApi } from '../use-merchant-api';
import { CreateQrDialog } from './create-qr.dialog';

export default function PayinsPage() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const can = useCan();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [creating, { open, close }] = useDisclosure();
  const list = useCursorList((cursor) => api.payins(filters, cursor), [api, filters]);

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('payins.title')}</PageTitle>
        <Group>
          {can('reports:read') && <DownloadCsv href={api.csvUrl('payins', filters)} />}
          {can('payins:write') && <Button onClick={open}>{t('payins.createQr')}</Button>}
        </Group>
      </Group>
      <CreateQrDialog
        opened={creating}
        onClose={close}
        onCreated={(p) => {
          close();
          navigate(`/payins/${encodeURIComponent(p.merchantTrxId)}`);
        }}
      />
      {/* Unmounted while the dialog is open: its "Merchant transaction ID" field must be the only input of that name. */}
      {!creating && (
        <ListFilters
          statuses={['pending', 'success', 'failed', 'expired']}
          searchLabel={t('payins.search')}
          initial={filters}
          onApply={setFilters}
        />
      )}
      <DataTable
        label={t('payins.tableLabel')}
        rows={list.items}
        rowKey={(p) => p.merchantTrxId}
        columns={[
          {
            header: t('payins.merchantTrxId'),
            cell: (p) => (
              <Anchor component={Link} to={`/payins/${encodeURIComponent(p.merchantTrxId)}`}>
                {p.merchantTrxId}
              </Anchor>
            ),
          },
          { header: t('payins.amount'), cell: (p) => formatRupiah(p.amount) },
          { header: t('payins.fee'), cell: (p) => formatRupiah(p.fee) },
          { header: t('common.status'), cell: (p) => <StatusBadge status={p.status} /> },
          { header: t('payins.createdAt'), cell: (p) => formatDateTime(p.createdAt, i18n.language) },
          { header: t('payins.paidAt'), cell: (p) => formatDateTime(p.successAt, i18n.language) },
        ]}
      />
      <ListFooter list={list} emptyText={t(isFiltered(filters) ? 'payins.empty' : 'payins.none')} />
    </>
  );
}
