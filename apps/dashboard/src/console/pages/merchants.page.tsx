import { Anchor, Button, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatRupiah } from '../../shared/format/format';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { FormError } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import type { Merchant } from '../console.api';
import { useConsoleApi } from '../use-console-api';
import { CreateMerchantDialog } from './create-merchant.dialog';

export default function MerchantsPage() {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const list = useCursorList((cursor) => api.merchants(cursor), [api]);
  const [creating, { open, close }] = useDisclosure();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Deactivating stops a merchant's whole API at once: asked first. Activating is not.
  const [deactivating, setDeactivating] = useState<Merchant | null>(null);

  const toggle = async (m: Merchant) => {
    setBusyId(m.id);
    setError(null);
    try {
      await api.setActive(m.id, !m.active);
      list.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('merchants.title')}</PageTitle>
        <Button onClick={open}>{t('merchants.create')}</Button>
      </Group>
      <CreateMerchantDialog opened={creating} onClose={close} onCreated={list.reload} />
      <FormError error={error} />
      <DataTable
        label={t('merchants.tableLabel')}
        rows={list.items}
        rowKey={(m) => m.id}
        columns={[
          { header: t('merchants.id'), cell: (m) => m.id },
          {
            header: t('merchants.name'),
            cell: (m) => (
              <Anchor component={Link} to={`/merchants/${encodeURIComponent(m.id)}`}>
                {m.name}
              </Anchor>
            ),
          },
          { header: t('merchants.balance'), cell: (m) => formatRupiah(m.available) },
          { header: t('merchants.pending'), cell: (m) => formatRupiah(m.pending) },
          { header: t('merchants.state'), cell: (m) => <StatusBadge status={m.active ? 'active' : 'inactive'} /> },
          {
            header: t('common.actions'),
            cell: (m) => (
              <Button
                size="xs"
                variant="outline"
                color={m.active ? 'red.9' : undefined}
                loading={busyId === m.id}
                onClick={() => (m.active ? setDeactivating(m) : void toggle(m))}
              >
                {m.active ? t('merchants.deactivate') : t('merchants.activate')}
              </Button>
            ),
          },
        ]}
      />
      <ListFooter list={list} emptyText={t('merchants.empty')} />
      <ConfirmDialog
        opened={deactivating !== null}
        title={t('merchants.deactivateTitle', { name: deactivating?.name ?? '' })}
        body={t('merchants.deactivateBody')}
        confirmLabel={t('merchants.deactivate')}
        danger
        onClose={() => setDeactivating(null)}
        onConfirm={async () => {
          if (deactivating) await api.setActive(deactivating.id, false);
          list.reload();
        }}
      />
    </>
  );
}
