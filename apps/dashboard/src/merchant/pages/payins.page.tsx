import { Anchor, Button, Group, Table } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { ListFilters, NO_FILTERS, type Filters } from '../../shared/ui/list-filters';
import { PageTitle } from '../../shared/ui/page-title';
import { EmptyText, ErrorState, LoadingState } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';
import { CreateQrDialog } from './create-qr.dialog';

export default function PayinsPage() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [creating, { open, close }] = useDisclosure();
  const list = useCursorList((cursor) => api.payins(filters, cursor), [api, filters]);

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('payins.title')}</PageTitle>
        <Button onClick={open}>{t('payins.createQr')}</Button>
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
      {!creating && <ListFilters statuses={['pending', 'success', 'failed', 'expired']} searchLabel={t('payins.search')} initial={filters} onApply={setFilters} />}
      {list.error !== null && <ErrorState error={list.error} onRetry={list.reload} />}
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover aria-label={t('payins.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('payins.merchantTrxId')}</Table.Th>
              <Table.Th scope="col">{t('payins.amount')}</Table.Th>
              <Table.Th scope="col">{t('payins.fee')}</Table.Th>
              <Table.Th scope="col">{t('common.status')}</Table.Th>
              <Table.Th scope="col">{t('payins.createdAt')}</Table.Th>
              <Table.Th scope="col">{t('payins.paidAt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.items.map((p) => (
              <Table.Tr key={p.merchantTrxId}>
                <Table.Td>
                  <Anchor component={Link} to={`/payins/${encodeURIComponent(p.merchantTrxId)}`}>
                    {p.merchantTrxId}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatRupiah(p.amount)}</Table.Td>
                <Table.Td>{formatRupiah(p.fee)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={p.status} />
                </Table.Td>
                <Table.Td>{formatDateTime(p.createdAt, i18n.language)}</Table.Td>
                <Table.Td>{formatDateTime(p.successAt, i18n.language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.loading && <LoadingState />}
      {!list.loading && list.error === null && list.items.length === 0 && <EmptyText>{t('payins.empty')}</EmptyText>}
      {list.nextCursor && !list.loading && (
        <Button variant="outline" mt="md" onClick={list.loadMore}>
          {t('common.loadMore')}
        </Button>
      )}
    </>
  );
}
