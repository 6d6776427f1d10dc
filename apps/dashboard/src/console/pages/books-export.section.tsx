import type { BooksExportKind, BooksExportView } from '@pay/contracts/dashboard';
import { Alert, Anchor, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRupiah } from '../../shared/format/format';
import { useApi } from '../../shared/session/session.context';
import { FormError } from '../../shared/ui/states';

/** The finance exports (`admin books export`): a day's journal, trial balance or reconciliation report as CSV, built by the workers, downloaded when ready. */
export function BooksExportSection() {
  const { t } = useTranslation();
  const api = useApi();
  const [date, setDate] = useState('');
  const [kind, setKind] = useState<BooksExportKind>('journal');
  const [job, setJob] = useState<BooksExportView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (call: () => Promise<BooksExportView>) => {
    setBusy(true);
    setError(null);
    try {
      setJob(await call());
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const request = () => run(() => api.post<BooksExportView>('/books/exports', { date, kind }));
  const check = (id: string) => run(() => api.get<BooksExportView>(`/books/exports/${encodeURIComponent(id)}`));
  const inProgress = job?.status === 'queued' || job?.status === 'running';
  const what = job && { kind: t(`ledger.exports.kinds.${job.kind}`), date: job.date };
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('ledger.exports.title')}
      </Title>
      <Text>{t('ledger.exports.intro')}</Text>
      <Group align="end">
        <TextInput
          label={t('ledger.exports.date')}
          type="date"
          required
          value={date}
          onChange={(e) => setDate(e.currentTarget.value)}
        />
        <NativeSelect
          label={t('ledger.exports.kind')}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as BooksExportKind)}
          data={(['journal', 'trial-balance', 'reconciliation'] as const).map((k) => ({
            value: k,
            label: t(`ledger.exports.kinds.${k}`),
          }))}
        />
        <Button onClick={request} loading={busy} disabled={!date}>
          {t('ledger.exports.request')}
        </Button>
        {job && inProgress && (
          <Button variant="default" onClick={() => check(job.id)} loading={busy}>
            {t('ledger.exports.check')}
          </Button>
        )}
      </Group>
      <FormError error={error} />
      {job && inProgress && <Alert role="status">{t('ledger.exports.queued', { ...what, status: job.status })}</Alert>}
      {job?.status === 'ready' && (
        <Alert color={readyColor(job)} role="status">
          {job.kind === 'reconciliation'
            ? t(job.entries === 0 ? 'ledger.exports.noRun' : 'ledger.exports.readyReconciliation', {
                ...what,
                runs: job.entries,
                rows: job.rows,
                openBreaks: job.openBreaks,
              })
            : t('ledger.exports.ready', {
                ...what,
                rows: job.rows,
                debit: formatRupiah(job.totalDebit ?? 0),
                credit: formatRupiah(job.totalCredit ?? 0),
              })}{' '}
          {job.url && (
            <Anchor href={job.url} download>
              {t('ledger.exports.download')}
            </Anchor>
          )}
        </Alert>
      )}
      {job?.status === 'failed' && (
        <Alert color="red" role="alert">
          {t('ledger.exports.failed', { error: job.error })}
        </Alert>
      )}
      {job?.status === 'stale' && (
        <Alert color="yellow">
          {t('ledger.exports.stale')}{' '}
          {job.url && (
            <Anchor href={job.url} download>
              {t('ledger.exports.download')}
            </Anchor>
          )}
        </Alert>
      )}
    </Stack>
  );
}

/** The ledger's files: balanced or not; the reconciliation report: open breaks or none. */
function readyColor(job: BooksExportView): string {
  if (job.kind === 'reconciliation') return job.openBreaks ? 'yellow' : 'teal';
  return job.balanced ? 'teal' : 'red';
}
