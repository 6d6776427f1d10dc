import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { useCursorList } from '../../shared/ui/use-async';
import { useConsoleApi } from '../use-console-api';
import { useMerchantNames } from '../use-merchant-names';

export default function SettlementsPage() {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const list = useCursorList((cursor) => api.settlements(cursor), [api]);
  const merchantName = useMerchantNames();
  return (
    <>
      <PageTitle>{t('settlements.title')}</PageTitle>
      <DataTable
        label={t('settlements.tableLabel')}
        rows={list.items}
        rowKey={(s) => s.id}
        columns={[
          { header: t('settlements.merchant'), cell: (s) => merchantName(s.merchant) },
          { header: t('settlements.gross'), cell: (s) => formatRupiah(s.gross) },
          { header: t('settlements.fees'), cell: (s) => formatRupiah(s.fees) },
          { header: t('settlements.amount'), cell: (s) => formatRupiah(s.amount) },
          { header: t('settlements.count'), cell: (s) => s.payinCount ?? '–' },
          { header: t('settlements.cutoffAt'), cell: (s) => formatDateTime(s.cutoffAt, i18n.language) },
          { header: t('settlements.createdAt'), cell: (s) => formatDateTime(s.createdAt, i18n.language) },
        ]}
      />
      <ListFooter list={list} emptyText={t('settlements.empty')} />
    </>
  );
}
