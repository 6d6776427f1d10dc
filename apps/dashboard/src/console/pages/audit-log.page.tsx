import { Code, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { useCursorList } from '../../shared/ui/use-async';
import { useConsoleApi } from '../use-console-api';
import { useMerchantNames } from '../use-merchant-names';

export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const list = useCursorList((cursor) => api.auditLog(cursor), [api]);
  const merchantName = useMerchantNames();
  // `merchant:7` reads as the merchant's name with its id; other targets (token:…, dashboard-user:…) as they are.
  const target = (text: string) => {
    const merchant = /^merchant:(\d+)$/.exec(text);
    return merchant ? `${t('audit.merchant')} ${merchantName(merchant[1])}` : text;
  };
  return (
    <>
      <PageTitle>{t('audit.title')}</PageTitle>
      <DataTable
        label={t('audit.tableLabel')}
        minWidth={900}
        rows={list.items}
        rowKey={(a) => a.id}
        columns={[
          { header: t('audit.time'), cell: (a) => formatDateTime(a.at, i18n.language) },
          {
            header: t('audit.operator'),
            cell: (a) =>
              a.actor.kind === 'operator'
                ? a.operator
                : a.actor.kind === 'ops-api'
                  ? t('audit.opsApi')
                  : t('audit.cli', { where: a.actor.where }),
          },
          { header: t('audit.action'), cell: (a) => <Code>{a.action}</Code> },
          { header: t('audit.target'), cell: (a) => target(a.target) },
          {
            header: t('audit.changes'),
            cell: (a) =>
              a.changes.length > 0 && (
                <Stack gap={2} data-testid="audit-changes">
                  {a.changes.map((c) => (
                    <Text key={c.field} size="sm">
                      <Code>{c.field}</Code> {c.from} → {c.to}
                    </Text>
                  ))}
                </Stack>
              ),
          },
          {
            header: t('audit.details'),
            cell: (a) => a.details && <Code style={{ wordBreak: 'break-all' }}>{a.details}</Code>,
          },
          { header: t('audit.logId'), cell: (a) => a.logId },
        ]}
      />
      <ListFooter list={list} emptyText={t('audit.empty')} />
    </>
  );
}
