import { Alert, Anchor, Button, Code, Paper, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { PageTitle } from '../../shared/ui/page-title';
import { EmptyText, ErrorState, FormError, LoadingState } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useAsync } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';

export default function PayoutDetailPage() {
  const { t, i18n } = useTranslation();
  const { merchantTrxId = '' } = useParams();
  const api = useMerchantApi();
  const { data: p, error, loading, reload } = useAsync(() => api.payout(merchantTrxId), [api, merchantTrxId]);
  const [busy, setBusy] = useState(false);
  const [resendError, setResendError] = useState<unknown>(null);
  const [resent, setResent] = useState(false);

  const resend = async () => {
    setBusy(true);
    setResendError(null);
    setResent(false);
    try {
      await api.resendPayoutCallback(merchantTrxId);
      setResent(true);
      reload();
    } catch (e) {
      setResendError(e);
    } finally {
      setBusy(false);
    }
  };

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
          <Paper withBorder p="md" radius="md" component="section">
            <Title order={2} size="h4" id="attempts-title" mb="sm">
              {t('payouts.attempts')}
            </Title>
            <Table.ScrollContainer minWidth={600}>
              <Table striped aria-labelledby="attempts-title">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('payouts.attemptTime')}</Table.Th>
                    <Table.Th scope="col">{t('payouts.httpStatus')}</Table.Th>
                    <Table.Th scope="col">{t('payouts.latency')}</Table.Th>
                    <Table.Th scope="col">{t('payouts.response')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {p.attempts.map((a, i) => (
                    <Table.Tr key={`${a.at}-${i}`}>
                      <Table.Td>{formatDateTime(a.at, i18n.language)}</Table.Td>
                      <Table.Td>{a.httpStatus ?? t('payouts.noResponse')}</Table.Td>
                      <Table.Td>{a.latencyMs === null ? '–' : t('payouts.latencyMs', { ms: a.latencyMs })}</Table.Td>
                      <Table.Td>
                        {a.response ? <Code style={{ wordBreak: 'break-all' }}>{a.response}</Code> : '–'}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {p.attempts.length === 0 && <EmptyText>{t('payouts.noAttempts')}</EmptyText>}
            <Stack mt="md" align="flex-start">
              <Button onClick={resend} loading={busy}>
                {t('payouts.resend')}
              </Button>
              {resent && (
                <Alert color="teal" role="status">
                  {t('payouts.resent')}
                </Alert>
              )}
              <FormError error={resendError} />
            </Stack>
          </Paper>
        </>
      )}
    </Stack>
  );
}
