import { Anchor, Paper, Stack, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { PageTitle } from '../../shared/ui/page-title';
import { ErrorState, LoadingState } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useAsync } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';
import { CallbackAttempts } from './callback-attempts';

export default function PayoutDetailPage() {
  const { t, i18n } = useTranslation();
  const { merchantTrxId = '' } = useParams();
  const api = useMerchantApi();
  const { data: p, error, loading, reload } = useAsync(() => api.payout(merchantTrxId), [api, merchantTrxId]);
  return (
    <Stack>
      <Anchor component={Link} to="/payouts">
        {t('common.backToList')}
      </Anchor>
      <PageTitle>{t('payouts.detailTitle', { id: merchantTrxId })}</PageTitle>
      {loading && !p && <LoadingState />}
      {error !== null && <ErrorState error={error} onRetry={reload} />}
      {p && (
        <>
          <Paper withBorder p="md" radius="md">
            <Table aria-label={t('payouts.detailTitle', { id: merchantTrxId })}>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th scope="row">{t('common.status')}</Table.Th>
                  <Table.Td>
                    <StatusBadge status={p.status} testId="payout-status" />
                  </Table.Td>
                </Table.Tr>
                {(
                  [
                    [t('payouts.merchantTrxId'), p.merchantTrxId],
                    [t('payins.platformTrxId'), p.platformTrxId || '–'],
                    [t('payouts.account'), `${p.accountName} (${p.bankCode} ${p.accountNo})`],
                    [t('common.amount'), formatRupiah(p.amount)],
                    [t('payouts.fee'), formatRupiah(p.fee)],
                    [t('payouts.total'), formatRupiah(p.totalAmount)],
                    [t('payouts.createdAt'), formatDateTime(p.createdAt, i18n.language)],
                    [t('payouts.successAt'), formatDateTime(p.successAt, i18n.language)],
                    ...(p.status === 'failed'
                      ? [
                          [
                            t('payouts.failure'),
                            [
                              p.failureCode ? t(`payoutFailures.${p.failureCode}`, p.failureCode) : null,
                              p.failureReason,
                            ]
                              .filter(Boolean)
                              .join(' · ') || '–',
                          ] as const,
                        ]
                      : []),
                    ...(p.status === 'reversed'
                      ? [
                          [t('payouts.reversedAt'), formatDateTime(p.reversedAt, i18n.language)] as const,
                          [
                            t('payouts.reversal'),
                            [p.reversalReason, t('payouts.reversedNote')].filter(Boolean).join(' · '),
                          ] as const,
                        ]
                      : []),
                  ] as const
                ).map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Th scope="row">{k}</Table.Th>
                    <Table.Td>{v}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <CallbackAttempts
            attempts={p.attempts}
            onResend={async () => {
              await api.resendPayoutCallback(merchantTrxId);
              reload();
            }}
          />
        </>
      )}
    </Stack>
  );
}
