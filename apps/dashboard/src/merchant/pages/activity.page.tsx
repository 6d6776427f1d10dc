import { Code, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format/format';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { useCursorList } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';

/** `token.create` → the key `token_create` (i18next reads dots as nesting). */
const actionKey = (action: string) => action.replace(/[.-]/g, '_');

/**
 * The merchant's activity log (decision 0023): what its dashboard users changed, and their
 * sign-ins, refused sign-ins and sign-outs, newest first. Its own page, not a Developers section:
 * it covers pay-ins, payouts, reconciliation and sign-ins as well as the developer settings.
 */
export default function ActivityPage() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const list = useCursorList((cursor) => api.activity(cursor), [api]);
  return (
    <>
      <PageTitle>{t('activity.title')}</PageTitle>
      <Text mb="md">{t('activity.intro')}</Text>
      <DataTable
        label={t('activity.tableLabel')}
        minWidth={720}
        rows={list.items}
        rowKey={(a) => a.id}
        columns={[
          { header: t('activity.time'), cell: (a) => formatDateTime(a.at, i18n.language) },
          { header: t('activity.user'), cell: (a) => a.user },
          {
            header: t('activity.action'),
            cell: (a) => (
              <Stack gap={2}>
                <span>{t(`activity.actions.${actionKey(a.action)}`, { defaultValue: a.action })}</span>
                <Code>{a.action}</Code>
              </Stack>
            ),
          },
          { header: t('activity.target'), cell: (a) => a.target },
        ]}
      />
      <ListFooter list={list} emptyText={t('activity.empty')} />
    </>
  );
}
