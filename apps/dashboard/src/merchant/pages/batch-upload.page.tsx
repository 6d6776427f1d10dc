import { Alert, Anchor, Badge, Button, FileInput, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import type { BatchPreviewView, BatchRowBody, BatchView } from '@pay/contracts/dashboard';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatRupiah, jakartaToday } from '../../shared/format/format';
import { DataTable } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { ErrorState, FormError, fieldError } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useMerchantApi } from '../use-merchant-api';
import { BATCH_CSV_COLUMNS, parseBatchCsv, type ParsedBatchCsv } from './batch-csv';

const MAX_ROWS = 1000;
const POLL_MS = 2000;
const TEMPLATE = `${BATCH_CSV_COLUMNS.join(',')}\nPAYROLL-0001,BCA,1234567890,BUDI SANTOSO,150000\nPAYROLL-0002,OVO,081234567890,,75000.50\n`;

/** A batch id from the file's name and today: printable, no spaces, at most 64 characters. */
function batchIdFor(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, '').replace(/[^\x21-\x7E]+/g, '-');
  return `${stem}-${jakartaToday()}`.slice(0, 64);
}

/**
 * Batch payouts from a CSV (issue 44): the file read here, each row previewed by the server (the
 * problem of each, as the submission would say it, nothing recorded), then sent as one batch
 * (the password confirmed if it was not lately), and followed until every row is final.
 */
export default function BatchUploadPage() {
  const { t } = useTranslation();
  const api = useMerchantApi();
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState<BatchRowBody[] | null>(null);
  const [fileProblem, setFileProblem] = useState<Exclude<ParsedBatchCsv, { kind: 'rows' }> | null>(null);
  const [preview, setPreview] = useState<BatchPreviewView | null>(null);
  const [batchId, setBatchId] = useState('');
  const [sentId, setSentId] = useState<string | null>(null);
  const [batch, setBatch] = useState<BatchView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [pollError, setPollError] = useState<unknown>(null);

  const choose = async (f: File | null) => {
    setFile(f);
    setRows(null);
    setPreview(null);
    setFileProblem(null);
    setError(null);
    setSentId(null);
    setBatch(null);
    if (!f) return;
    setBatchId(batchIdFor(f.name));
    const parsed = parseBatchCsv(await f.text(), MAX_ROWS);
    if (parsed.kind === 'error') return setFileProblem(parsed);
    setRows(parsed.rows);
    setBusy(true);
    try {
      setPreview(await api.previewBatch(parsed.rows));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!rows) return;
    setBusy(true);
    setError(null);
    try {
      const sent = await api.submitBatch(batchId, rows);
      setSentId(sent.batchId);
      setBatch(await api.batch(sent.batchId));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  // Follow the batch until every row is final.
  useEffect(() => {
    if (!sentId || batch?.status === 'completed' || pollError) return;
    const timer = setTimeout(() => {
      api.batch(sentId).then(setBatch, setPollError);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [api, sentId, batch, pollError]);

  const fileProblemText =
    fileProblem &&
    t(`batches.fileProblems.${fileProblem.error}`, {
      detail: fileProblem.detail,
      line: fileProblem.line,
      max: MAX_ROWS,
    });

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('batches.title')}</PageTitle>
        <Anchor component={Link} to="/payouts">
          {t('batches.back')}
        </Anchor>
      </Group>
      <Text maw={720}>{t('batches.intro', { columns: BATCH_CSV_COLUMNS.join(', '), max: MAX_ROWS })}</Text>
      <Group>
        <Anchor href={`data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`} download="batch-template.csv">
          {t('batches.template')}
        </Anchor>
      </Group>
      <FileInput
        label={t('batches.file')}
        placeholder={t('batches.choose')}
        accept=".csv,text/csv"
        clearable
        clearButtonProps={{ 'aria-label': t('batches.clear') }}
        value={file}
        onChange={(f) => void choose(f)}
        maw={420}
        data-testid="batch-file"
      />
      {fileProblemText && (
        <Alert color="red" role="alert" data-testid="batch-file-problem">
          {fileProblemText}
        </Alert>
      )}
      {busy && !preview && (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('batches.checking')}</Text>
        </Group>
      )}
      {preview && rows && !sentId && (
        <>
          <Alert color={preview.refused ? 'yellow' : 'teal'} role="status" data-testid="batch-summary">
            {t('batches.summary', {
              rows: preview.rowCount,
              accepted: preview.accepted,
              refused: preview.refused,
              amount: formatRupiah(preview.acceptedAmount),
            })}
          </Alert>
          <PreviewTable preview={preview} rows={rows} />
          <form onSubmit={submit} noValidate>
            <Group align="flex-end">
              <TextInput
                label={t('batches.batchId')}
                description={t('batches.batchIdHelp')}
                required
                maxLength={64}
                value={batchId}
                onChange={(e) => setBatchId(e.currentTarget.value)}
                error={fieldError(error, 'batchId')}
                miw={320}
              />
              <Button type="submit" loading={busy} disabled={preview.accepted === 0 || !batchId}>
                {t('batches.send', { count: preview.accepted })}
              </Button>
            </Group>
          </form>
          {preview.refused > 0 && <Text size="sm">{t('batches.refusedNote')}</Text>}
        </>
      )}
      <FormError error={error} fields={['batchId']} />
      {pollError !== null && <ErrorState error={pollError} onRetry={() => setPollError(null)} />}
      {batch && <BatchProgress batch={batch} />}
    </Stack>
  );
}

function PreviewTable({ preview, rows }: { preview: BatchPreviewView; rows: BatchRowBody[] }) {
  const { t } = useTranslation();
  const sent = (rowNo: number) => rows[rowNo - 1];
  return (
    <div data-testid="batch-preview">
      <DataTable
        label={t('batches.previewLabel')}
        minWidth={900}
        rows={preview.rows}
        rowKey={(r) => String(r.rowNo)}
        columns={[
          { header: t('batches.row'), cell: (r) => r.rowNo },
          { header: t('payouts.merchantTrxId'), cell: (r) => sent(r.rowNo)?.merchantTrxId },
          { header: t('payouts.bank'), cell: (r) => sent(r.rowNo)?.bankCode },
          { header: t('payouts.account'), cell: (r) => sent(r.rowNo)?.accountNo },
          { header: t('batches.accountName'), cell: (r) => sent(r.rowNo)?.accountName ?? '' },
          {
            header: t('common.amount'),
            cell: (r) => {
              const amount = sent(r.rowNo)?.amount;
              return typeof amount === 'number' ? formatRupiah(amount) : String(amount ?? '');
            },
          },
          {
            header: t('batches.check'),
            cell: (r) =>
              r.result === 'accepted' ? (
                <Badge color="teal.9" data-result="accepted">
                  {t('batches.ok')}
                </Badge>
              ) : (
                <Stack gap={2}>
                  <Badge color="red.9" data-result="refused">
                    {r.code}
                  </Badge>
                  <Text size="sm">{r.message}</Text>
                </Stack>
              ),
          },
        ]}
      />
    </div>
  );
}

function BatchProgress({ batch }: { batch: BatchView }) {
  const { t } = useTranslation();
  const c = batch.counts;
  return (
    <Stack data-testid="batch-progress" data-status={batch.status}>
      <Group>
        <Text fw={600}>{t('batches.sent', { id: batch.batchId })}</Text>
        <StatusBadge status={batch.status} />
      </Group>
      <Text>
        {t('batches.counts', {
          checking: c.checking,
          pending: c.pending,
          success: c.success,
          failed: c.failed,
          refused: c.refused,
        })}
      </Text>
      <Text>
        {t('batches.paid', {
          amount: formatRupiah(batch.totals.successAmount),
          fee: formatRupiah(batch.totals.successFee),
        })}
      </Text>
      <DataTable
        label={t('batches.rowsLabel')}
        minWidth={820}
        rows={batch.rows}
        rowKey={(r) => String(r.rowNo)}
        columns={[
          { header: t('batches.row'), cell: (r) => r.rowNo },
          {
            header: t('payouts.merchantTrxId'),
            cell: (r) =>
              r.platformTrxId ? (
                <Anchor component={Link} to={`/payouts/${encodeURIComponent(r.merchantTrxId)}`}>
                  {r.merchantTrxId}
                </Anchor>
              ) : (
                r.merchantTrxId
              ),
          },
          { header: t('payouts.account'), cell: (r) => `${r.accountName ?? ''} (${r.bankCode} ${r.accountNo})` },
          { header: t('common.amount'), cell: (r) => formatRupiah(r.amount) },
          { header: t('common.status'), cell: (r) => <StatusBadge status={r.status} /> },
          {
            header: t('batches.why'),
            cell: (r) => (r.failureCode ? `${r.failureCode}: ${r.failureMessage ?? ''}` : ''),
          },
        ]}
      />
    </Stack>
  );
}
