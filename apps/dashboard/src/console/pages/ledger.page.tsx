import type { LedgerFindingView, LedgerReportView } from '@pay/contracts/dashboard';
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../shared/session/session.context';
import { DataTable } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { FormError } from '../../shared/ui/states';
import { BooksExportSection } from './books-export.section';
import { TrialBalanceSection } from './trial-balance.section';

/** The ledger audit (`admin ledger verify`) on demand: every balance and money row against the events. */
export default function LedgerPage() {
  const { t } = useTranslation();
  const api = useApi();
  const [report, setReport] = useState<LedgerReportView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const verify = async () => {
    setBusy(true);
    setError(null);
    try {
      setReport(await api.get<LedgerReportView>('/ledger/verify'));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack maw={960}>
      <PageTitle>{t('ledger.title')}</PageTitle>
      <Text>{t('ledger.intro')}</Text>
      <Group>
        <Button onClick={verify} loading={busy}>
          {t('ledger.verify')}
        </Button>
      </Group>
      <FormError error={error} />
      {report && (
        <Alert color={report.breaches.length ? 'red' : 'teal'} role="status">
          {report.breaches.length
            ? t('ledger.breaches', { count: report.breaches.length })
            : t('ledger.clean', {
                merchants: report.merchantsChecked,
                events: report.eventsChecked,
              })}
          {report.inFlight.length > 0 &&
            ` ${t('ledger.inFlight', { count: report.inFlight.length, seconds: report.graceSeconds })}`}
        </Alert>
      )}
      {report && report.breaches.length > 0 && <Findings label={t('ledger.tableLabel')} rows={report.breaches} />}
      {report && report.warnings.length > 0 && (
        <>
          <Alert color="yellow" data-testid="ledger-warnings">
            {t('ledger.warnings', { count: report.warnings.length })}
          </Alert>
          <Findings label={t('ledger.warningsLabel')} rows={report.warnings} />
        </>
      )}
      <TrialBalanceSection />
      <BooksExportSection />
    </Stack>
  );
}

/** Findings of the audit, one row each: where, which check, what was expected and what was found. */
function Findings({ label, rows }: { label: string; rows: LedgerFindingView[] }) {
  const { t } = useTranslation();
  return (
    <DataTable
      label={label}
      rows={rows}
      rowKey={(b) => `${b.table}:${b.id}:${b.check}`}
      columns={[
        { header: t('ledger.table'), cell: (b) => <Code>{b.table}</Code> },
        { header: t('ledger.row'), cell: (b) => b.id },
        { header: t('ledger.merchant'), cell: (b) => b.merchantId ?? '—' },
        { header: t('ledger.check'), cell: (b) => <Code>{b.check}</Code> },
        { header: t('ledger.expected'), cell: (b) => b.expected },
        { header: t('ledger.found'), cell: (b) => b.found },
      ]}
    />
  );
}
