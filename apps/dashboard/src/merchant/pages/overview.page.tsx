import { AreaChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Alert, Button, Card, Group, Paper, SimpleGrid, Text, Title, VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useSessionContext } from '../../shared/session/session.context';
import { formatRupiah, formatShortDay } from '../../shared/format/format';
import { PageTitle } from '../../shared/ui/page-title';
import { ErrorState, FormError, LoadingState } from '../../shared/ui/states';
import { useAction, useAsync } from '../../shared/ui/use-async';
import { useMerchantApi } from '../use-merchant-api';

function Figure({
  label,
  amount,
  detail,
  testId,
}: {
  label: string;
  amount: number;
  detail?: string;
  testId?: string;
}) {
  return (
    <Card withBorder padding="md" radius="md">
      <Text size="sm" c="gray.8">
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={testId} data-amount={testId ? String(amount) : undefined}>
        {formatRupiah(amount)}
      </Text>
      {detail && (
        <Text size="sm" c="gray.8">
          {detail}
        </Text>
      )}
    </Card>
  );
}

export default function OverviewPage() {
  const { t, i18n } = useTranslation();
  const api = useMerchantApi();
  const { data, error, loading, reload } = useAsync(() => api.overview(), [api]);
  const { state } = useSessionContext();
  const can = useCan();
  // Settling now is a pay-in write: a role without it is not offered the button.
  const canSettle = state.status === 'signed-in' && state.session.sandbox && can('payins:write');
  // Sandbox only: pending settled now, then the figures read again while the ledger moves it.
  const settle = useAction(() => api.settleNow());
  const [settled, setSettled] = useState<{ payinCount: number; requested: boolean } | null>(null);
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!settled?.requested || loading || polls >= 10 || (data && data.pending === 0)) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      reload();
    }, 700);
    return () => clearTimeout(timer);
  }, [settled, loading, polls, data, reload]);

  return (
    <>
      <PageTitle>{t('overview.title')}</PageTitle>
      {loading && !data && <LoadingState />}
      {error !== null && <ErrorState error={error} onRetry={reload} />}
      {data && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mb="lg">
            <Figure label={t('overview.available')} amount={data.available} testId="balance-available" />
            <Figure label={t('overview.pending')} amount={data.pending} testId="balance-pending" />
            <Figure
              label={t('overview.todayPayins')}
              amount={data.todayPayins.amount}
              detail={t('overview.count', { count: data.todayPayins.count })}
            />
            <Figure
              label={t('overview.todayPayouts')}
              amount={data.todayPayouts.amount}
              detail={t('overview.count', { count: data.todayPayouts.count })}
            />
          </SimpleGrid>
          {canSettle && (
            <Group mb="lg" gap="sm">
              <Button
                variant="outline"
                loading={settle.busy}
                onClick={async () => {
                  setSettled(null);
                  setPolls(0);
                  const result = await settle.run();
                  if (result) setSettled(result.value);
                }}
              >
                {t('overview.settleNow')}
              </Button>
              <Text size="sm" c="gray.8">
                {t('overview.settleNowHint')}
              </Text>
              <FormError error={settle.error} />
              {settled && (
                <Alert color={settled.requested ? 'teal' : 'gray'} role="status" py="xs">
                  {settled.requested
                    ? t('overview.settleRequested', { count: settled.payinCount })
                    : t('overview.nothingToSettle')}
                </Alert>
              )}
            </Group>
          )}
          <Paper withBorder p="md" radius="md" component="section">
            <Title order={2} size="h4" id="chart-title" mb="sm">
              {t('overview.chartTitle')}
            </Title>
            <figure data-testid="overview-chart" style={{ margin: 0 }}>
              <VisuallyHidden component="figcaption">{t('overview.chartLabel')}</VisuallyHidden>
              <AreaChart
                h={280}
                data={data.days.map((d) => ({
                  day: formatShortDay(d.date, i18n.language),
                  payins: d.payins,
                  payouts: d.payouts,
                }))}
                dataKey="day"
                series={[
                  { name: 'payins', label: t('overview.payins'), color: 'blue.8' },
                  { name: 'payouts', label: t('overview.payouts'), color: 'grape.8' },
                ]}
                curveType="monotone"
                withLegend
                valueFormatter={(v) => formatRupiah(v)}
                // An empty month has a scale in Rupiah, not Rp 0 to 4 (recharts' default domain for all zeros).
                yAxisProps={{
                  width: 110,
                  allowDecimals: false,
                  domain: [0, (max: number) => (max > 0 ? max : 100_000)],
                }}
              />
            </figure>
          </Paper>
        </>
      )}
    </>
  );
}
