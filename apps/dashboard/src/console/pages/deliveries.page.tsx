import { Alert, Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { FormError } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import { useConsoleApi } from '../use-console-api';
import { useMerchantNames } from '../use-merchant-names';

export default function DeliveriesPage() {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const merchantName = useMerchantNames();
  const list = useCursorList((cursor) => api.deliveries(cursor), [api]);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [resent, setResent] = useState(false);

  const resend = async (id: string) => {
    setBusyId(id);
    setError(null);
    setResent(false);
    try {
      await api.resendDelivery(id);
      setResent(true);
      list.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusyId(null);
    }
  };

  return (
    <>
      <PageTitle>{t('deliveries.title')}</PageTitle>
      <FormError error={error} />
      {resent && (
        <Alert color="teal" role="status" mb="md">
          {t('deliveries.resent')}
        </Alert>
      )}
      <DataTable
        label={t('deliveries.tableLabel')}
        minWidth={900}
        rows={list.items}
        rowKey={(d) => d.id}
        columns={[
          { header: t('common.createdAt'), cell: (d) => formatDateTime(d.createdAt, i18n.language) },
          { header: t('deliveries.merchant'), cell: (d) => merchantName(d.merchant) },
          { header: t('deliveries.kind'), cell: (d) => d.kind },
          { header: t('deliveries.reference'), cell: (d) => d.reference },
          { header: t('deliveries.url'), cell: (d) => <span style={{ wordBreak: 'break-all' }}>{d.url}</span> },
          { header: t('deliveries.attempts'), cell: (d) => d.attempts },
          { header: t('deliveries.lastStatus'), cell: (d) => d.lastHttpStatus ?? '–' },
          { header: t('deliveries.state'), cell: (d) => d.status && <StatusBadge status={d.status} /> },
          {
            header: t('common.actions'),
            cell: (d) => (
              <Button size="xs" variant="outline" loading={busyId === d.id} onClick={() => void resend(d.id)}>
                {t('deliveries.resend')}
              </Button>
            ),
          },
        ]}
      />
      <ListFooter list={list} emptyText={t('deliveries.empty')} />
    </>
  );
}
