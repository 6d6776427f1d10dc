import { Alert, Anchor, Button, Group, Image, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { useCan, useSession } from '../../shared/session/session.context';
import { PageTitle } from '../../shared/ui/page-title';
import { ErrorState, FormError, LoadingState } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useAsync } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';
import { CallbackAttempts } from './callback-attempts';
import { PayinRefunds } from './payin-refunds.section';

export default function PayinDetailPage() {
  const { t, i18n } = useTranslation();
  const { merchantTrxId = '' } = useParams();
  const api = useMerchantApi();
  const session = useSession();
  const can = useCan();
  const { data: p, error, loading, reload } = useAsync(() => api.payin(merchantTrxId), [api, merchantTrxId]);
  const [simulating, setSimulating] = useState(false);
  const [simError, setSimError] = useState<unknown>(null);
  const [simulated, setSimulated] = useState(false);

  // The sandbox acquirer's notification lands a moment later: look again for a few seconds.
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!simulated || loading || p?.status !== 'pending' || polls >= 10) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      reload();
    }, 1000);
    return () => clearTimeout(timer);
  }, [simulated, loading, p?.status, polls, reload]);

  const simulate = async () => {
    setSimulating(true);
    setSimError(null);
    try {
      await api.simulatePayin(merchantTrxId);
      setSimulated(true);
      reload();
    } catch (e) {
      setSimError(e);
    } finally {
      setSimulating(false);
    }
  };

  const rows: [string, string][] = p
    ? [
        [t('payins.merchantTrxId'), p.merchantTrxId],
        [t('payins.platformTrxId'), p.platformTrxId || '–'],
        [t('payins.amount'), formatRupiah(p.amount)],
        [t('payins.fee'), formatRupiah(p.fee)],
        [t('payins.net'), formatRupiah(p.netAmount)],
        [t('payins.createdAt'), formatDateTime(p.createdAt, i18n.language)],
        [t('payins.expiresAt'), formatDateTime(p.expiresAt, i18n.language)],
        [t('payins.paidAt'), formatDateTime(p.successAt, i18n.language)],
        [t('payins.rrn'), p.rrn ?? '–'],
        [t('payins.nmid'), p.nmid ?? '–'],
      ]
    : [];

  return (
    <Stack>
      <Anchor component={Link} to="/payins">
        {t('common.backToList')}
      </Anchor>
      <PageTitle>{t('payins.detailTitle', { id: merchantTrxId })}</PageTitle>
      {loading && !p && <LoadingState />}
      {error !== null && <ErrorState error={error} onRetry={reload} />}
      {p && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder p="md" radius="md">
            <Group mb="sm">
              <Text fw={600}>{t('common.status')}</Text>
              <StatusBadge status={p.status} testId="payin-status" />
            </Group>
            <Table aria-label={t('payins.detailTitle', { id: merchantTrxId })}>
              <Table.Tbody>
                {rows.map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Th scope="row">{k}</Table.Th>
                    <Table.Td>{v}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Stack align="center">
              {p.qrImage ? (
                <Image src={p.qrImage} alt={t('payins.qrAlt')} w={280} h={280} fit="contain" />
              ) : (
                <Text>{t('payins.qrGone')}</Text>
              )}
              {session.sandbox && p.status === 'pending' && can('payins:write') && (
                <Button onClick={simulate} loading={simulating}>
                  {t('payins.simulate')}
                </Button>
              )}
              {simulated && (
                <Alert color="teal" role="status">
                  {t('payins.simulated')}
                </Alert>
              )}
              <FormError error={simError} />
            </Stack>
          </Paper>
        </SimpleGrid>
      )}
      {p && <PayinRefunds payin={p} onRefunded={reload} />}
      {p && (
        <CallbackAttempts
          attempts={p.attempts}
          onResend={async () => {
            await api.resendPayinCallback(merchantTrxId);
            reload();
          }}
        />
      )}
    </Stack>
  );
}
