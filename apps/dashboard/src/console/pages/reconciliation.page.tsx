import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Code,
  FileInput,
  Group,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { ReconBreakView, ReconDayReportView, ReconSourceView } from '@pay/contracts/dashboard';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatRupiah } from '../../shared/format/format';
import { useSession } from '../../shared/session/session.context';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { Section } from '../../shared/ui/section';
import { FormError } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useCursorList } from '../../shared/ui/use-async';
import { useConsoleApi } from '../use-console-api';

type SourceKind = ReconSourceView['kind'];
const SIDES = [
  'ledgerPayins',
  'reportLines',
  'matchedPayins',
  'statementCredits',
  'statementDebits',
  'ledgerPayouts',
  'ledgerRailFees',
] as const;

/**
 * The three-way reconciliation (`admin recon`, docs/operations/reconciliation.md): the days run,
 * newest first; a day's counts and exact sums per side, the suspense its batches booked and every
 * break; a break given an owner or resolved with a note; a day's CSV report or statement uploaded
 * and the day run (again). Every change asks for a recent password (the step-up dialog).
 */
export default function ReconciliationPage() {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const [filter, setFilter] = useState({ from: '', to: '', openOnly: false });
  const runs = useCursorList(() => api.reconRuns(filter), [api, filter]);
  const [day, setDay] = useState<ReconDayReportView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const show = async (load: () => Promise<ReconDayReportView>) => {
    setError(null);
    try {
      setDay(await load());
    } catch (e) {
      setError(e);
    }
  };
  const changed = (report: ReconDayReportView) => {
    setDay(report);
    runs.reload();
  };

  return (
    <Stack>
      <PageTitle>{t('reconciliation.title')}</PageTitle>
      <Text>
        {t('reconciliation.intro')}{' '}
        <Anchor component={Link} to="/ledger">
          {t('reconciliation.exportLink')}
        </Anchor>
      </Text>
      <UploadSection onRun={changed} />
      <Title order={2} size="h3">
        {t('reconciliation.runsTitle')}
      </Title>
      <Group align="flex-end">
        <TextInput
          label={t('reconciliation.from')}
          type="date"
          value={filter.from}
          onChange={(e) => setFilter({ ...filter, from: e.currentTarget.value })}
        />
        <TextInput
          label={t('reconciliation.to')}
          type="date"
          value={filter.to}
          onChange={(e) => setFilter({ ...filter, to: e.currentTarget.value })}
        />
        <Checkbox
          label={t('reconciliation.openOnly')}
          checked={filter.openOnly}
          onChange={(e) => setFilter({ ...filter, openOnly: e.currentTarget.checked })}
          mb={8}
        />
      </Group>
      <DataTable
        label={t('reconciliation.runsTable')}
        rows={runs.items}
        rowKey={(r) => r.id}
        columns={[
          { header: t('reconciliation.date'), cell: (r) => r.date },
          { header: t('reconciliation.acquirerRail'), cell: (r) => `${r.acquirer} / ${r.rail}` },
          { header: t('reconciliation.payins'), cell: (r) => side(r.sides.ledgerPayins) },
          {
            header: t('reconciliation.reportLines'),
            cell: (r) => (r.reportIngested ? side(r.sides.reportLines) : '–'),
          },
          {
            header: t('reconciliation.statement'),
            cell: (r) =>
              r.statementIngested
                ? `${side(r.sides.statementCredits)} / ${side(r.sides.statementDebits)}`
                : t('reconciliation.notIngested'),
          },
          { header: t('reconciliation.suspense'), cell: (r) => formatRupiah(r.suspense) },
          {
            header: t('reconciliation.breaks'),
            cell: (r) => (
              <Text size="sm" c={r.breaks.open ? 'red.9' : undefined} data-testid="recon-open-count">
                {t('reconciliation.breakCounts', r.breaks)}
              </Text>
            ),
          },
          {
            header: t('reconciliation.ranAt'),
            cell: (r) => `${formatDateTime(r.ranAt, i18n.language)} (${r.ranByName})`,
          },
          {
            header: t('common.actions'),
            cell: (r) => (
              <Button
                size="xs"
                variant="default"
                aria-label={t('reconciliation.showDay', { date: r.date, acquirer: r.acquirer, rail: r.rail })}
                onClick={() => show(() => api.reconReport(r.id))}
              >
                {t('reconciliation.show')}
              </Button>
            ),
          },
        ]}
      />
      <ListFooter list={runs} emptyText={t('reconciliation.empty')} />
      <FormError error={error} />
      {day && <DayReport report={day} onChange={changed} />}
    </Stack>
  );
}

const side = (s: { count: number; amount: number }) => `${s.count} · ${formatRupiah(s.amount)}`;

/** A day's CSV (the acquirer's report or the bank's statement) uploaded, then the day run with what it has. */
function UploadSection({ onRun }: { onRun(report: ReconDayReportView): void }) {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const [date, setDate] = useState('');
  const [acquirer, setAcquirer] = useState('qris');
  const [kind, setKind] = useState<SourceKind>('report');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [stored, setStored] = useState<ReconSourceView | null>(null);
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const upload = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    void act(async () => {
      setStored(null);
      setStored(await api.uploadRecon({ date, acquirer }, kind, await file.text()));
      setFile(null);
    });
  };
  const run = () => act(async () => onRun(await api.runRecon({ date, acquirer })));
  return (
    <Section title={t('reconciliation.uploadTitle')}>
      <form onSubmit={upload} aria-label={t('reconciliation.uploadTitle')}>
        <Stack>
          <Text size="sm">{t('reconciliation.uploadIntro')}</Text>
          <Group align="flex-end">
            <TextInput
              label={t('reconciliation.day')}
              type="date"
              required
              value={date}
              onChange={(e) => setDate(e.currentTarget.value)}
            />
            <NativeSelect
              label={t('reconciliation.acquirer')}
              description={t('reconciliation.acquirerHint')}
              value={acquirer}
              onChange={(e) => setAcquirer(e.currentTarget.value)}
              data={['qris', 'sandbox']}
            />
            <NativeSelect
              label={t('reconciliation.kind')}
              value={kind}
              onChange={(e) => setKind(e.currentTarget.value as SourceKind)}
              data={(['report', 'statement'] as const).map((k) => ({
                value: k,
                label: t(`reconciliation.kinds.${k}`),
              }))}
            />
            <FileInput
              label={t('reconciliation.file')}
              placeholder={t('reconciliation.choose')}
              accept=".csv,text/csv"
              required
              clearable
              value={file}
              onChange={setFile}
              miw={220}
            />
          </Group>
          <FormError error={error} />
          {stored && (
            <Alert color="teal" role="status" data-testid="recon-ingested">
              {t('reconciliation.ingested', {
                kind: t(`reconciliation.kinds.${stored.kind}`),
                lines: stored.lines,
                date,
              })}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={busy} disabled={!date || !file}>
              {t('reconciliation.upload')}
            </Button>
            <Button variant="default" onClick={run} loading={busy} disabled={!date}>
              {t('reconciliation.runDay')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

/** A day's report: its counts and exact sums per side, the suspense booked, its sources and every break. */
function DayReport({ report, onChange }: { report: ReconDayReportView; onChange(r: ReconDayReportView): void }) {
  const { t, i18n } = useTranslation();
  const api = useConsoleApi();
  const myEmail = useSession().user.email;
  const { run } = report;
  const [rerunning, setRerunning] = useState(false);
  const [assigning, setAssigning] = useState<ReconBreakView | null>(null);
  const [resolving, setResolving] = useState<ReconBreakView | null>(null);
  const [owner, setOwner] = useState('');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const reload = async (message: string) => {
    onChange(await api.reconReport(run.id));
    setDone(message);
  };
  const what = { date: run.date, acquirer: run.acquirer, rail: run.rail };
  const amount = (n: number | null) => (n === null ? '–' : formatRupiah(n));
  return (
    <Section title={t('reconciliation.dayTitle', what)}>
      <Stack>
        <Text size="sm">
          {t('reconciliation.ranBy', { when: formatDateTime(run.ranAt, i18n.language), who: run.ranByName })}
        </Text>
        <DataTable
          label={t('reconciliation.summaryTable', what)}
          minWidth={480}
          rows={[...SIDES]}
          rowKey={(k) => k}
          columns={[
            { header: t('reconciliation.side'), cell: (k) => t(`reconciliation.sides.${k}`) },
            { header: t('reconciliation.count'), cell: (k) => String(run.sides[k].count) },
            {
              header: t('reconciliation.amount'),
              cell: (k) =>
                k === 'reportLines'
                  ? t('reconciliation.grossMdrNet', {
                      gross: formatRupiah(run.sides.reportLines.amount),
                      mdr: formatRupiah(run.sides.reportLines.mdr),
                      net: formatRupiah(run.sides.reportLines.net),
                    })
                  : formatRupiah(run.sides[k].amount),
            },
          ]}
        />
        <Text data-testid="recon-suspense">
          {t('reconciliation.suspenseBooked', { amount: formatRupiah(run.suspense) })}
        </Text>
        <Text size="sm">
          {(['report', 'statement'] as const)
            .map((kind) => {
              const s = report.sources.find((x) => x.kind === kind);
              return s
                ? t('reconciliation.source', {
                    kind: t(`reconciliation.kinds.${kind}`),
                    lines: s.lines,
                    origin: s.origin,
                    when: formatDateTime(s.ingestedAt, i18n.language),
                  })
                : t('reconciliation.noSource', { kind: t(`reconciliation.kinds.${kind}`) });
            })
            .join(' ')}
        </Text>
        <Group>
          <Button variant="default" onClick={() => (setDone(null), setRerunning(true))}>
            {t('reconciliation.rerun')}
          </Button>
        </Group>
        {done && (
          <Alert color="teal" role="status" data-testid="recon-done">
            {done}
          </Alert>
        )}
        <Title order={3} size="h4">
          {t('reconciliation.breaksTitle', run.breaks)}
        </Title>
        {report.breaks.length === 0 ? (
          <Text>{t('reconciliation.noBreaks')}</Text>
        ) : (
          <DataTable
            label={t('reconciliation.breaksTable', what)}
            minWidth={1100}
            rows={report.breaks}
            rowKey={(b) => b.id}
            columns={[
              {
                header: t('reconciliation.code'),
                cell: (b) => (
                  <Stack gap={2}>
                    <Code>{b.code}</Code>
                    <Text size="xs">{t(`reconciliation.codes.${b.code}`)}</Text>
                  </Stack>
                ),
              },
              { header: t('reconciliation.subject'), cell: (b) => t(`reconciliation.subjects.${b.subject}`) },
              {
                header: t('reconciliation.reference'),
                cell: (b) => (
                  <Stack gap={2}>
                    <Code>{b.reference}</Code>
                    {b.batchId && b.batchId !== b.reference && (
                      <Text size="xs">{t('reconciliation.batch', { batch: b.batchId })}</Text>
                    )}
                  </Stack>
                ),
              },
              {
                header: t('reconciliation.expected'),
                cell: (b) => `${amount(b.expectedAmount)}${b.expectedDate ? ` (${b.expectedDate})` : ''}`,
              },
              {
                header: t('reconciliation.found'),
                cell: (b) => `${amount(b.actualAmount)}${b.actualDate ? ` (${b.actualDate})` : ''}`,
              },
              { header: t('reconciliation.suspense'), cell: (b) => formatRupiah(b.suspense) },
              {
                header: t('common.status'),
                cell: (b) => (
                  <Stack gap={2}>
                    <StatusBadge status={b.status} />
                    <Text size="xs">{b.detail}</Text>
                  </Stack>
                ),
              },
              { header: t('reconciliation.owner'), cell: (b) => b.owner ?? '–' },
              {
                header: t('reconciliation.resolution'),
                cell: (b) =>
                  b.resolution && (
                    <Stack gap={2}>
                      <Text size="sm">{b.resolution}</Text>
                      <Text size="xs">
                        {b.resolvedByName}, {formatDateTime(b.resolvedAt, i18n.language)}
                      </Text>
                    </Stack>
                  ),
              },
              {
                header: t('common.actions'),
                cell: (b) => (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={t('reconciliation.assignOne', { reference: b.reference })}
                      onClick={() => (setDone(null), setOwner(b.owner ?? myEmail), setAssigning(b))}
                    >
                      {t('reconciliation.assign')}
                    </Button>
                    {b.status === 'open' && (
                      <Button
                        size="xs"
                        aria-label={t('reconciliation.resolveOne', { reference: b.reference })}
                        onClick={() => (setDone(null), setNote(''), setResolving(b))}
                      >
                        {t('reconciliation.resolve')}
                      </Button>
                    )}
                  </Group>
                ),
              },
            ]}
          />
        )}
      </Stack>
      <ConfirmDialog
        opened={rerunning}
        title={t('reconciliation.rerunTitle', what)}
        body={t('reconciliation.rerunBody')}
        confirmLabel={t('reconciliation.rerun')}
        onClose={() => setRerunning(false)}
        onConfirm={async () => {
          onChange(await api.runRecon({ date: run.date, acquirer: run.acquirer, rail: run.rail }));
          setDone(t('reconciliation.rerunDone', what));
        }}
      />
      <ConfirmDialog
        opened={assigning !== null}
        title={t('reconciliation.assignTitle', { reference: assigning?.reference ?? '' })}
        body={
          <TextInput
            label={t('reconciliation.owner')}
            description={t('reconciliation.ownerHint')}
            required
            maxLength={200}
            value={owner}
            onChange={(e) => setOwner(e.currentTarget.value)}
          />
        }
        confirmLabel={t('reconciliation.assign')}
        onClose={() => setAssigning(null)}
        onConfirm={async () => {
          if (!assigning) return;
          const b = await api.assignReconBreak(assigning.id, owner);
          await reload(t('reconciliation.assigned', { reference: b.reference, owner: b.owner }));
        }}
      />
      <ConfirmDialog
        opened={resolving !== null}
        title={t('reconciliation.resolveTitle', { reference: resolving?.reference ?? '' })}
        body={
          <Stack>
            <Text>{t('reconciliation.resolveBody')}</Text>
            <Textarea
              label={t('reconciliation.note')}
              required
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
          </Stack>
        }
        confirmLabel={t('reconciliation.resolve')}
        onClose={() => setResolving(null)}
        onConfirm={async () => {
          if (!resolving) return;
          const b = await api.resolveReconBreak(resolving.id, note);
          await reload(t('reconciliation.resolved', { reference: b.reference }));
        }}
      />
    </Section>
  );
}
