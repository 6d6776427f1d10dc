import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import type { BooksExportKind, BooksExportView } from '@pay/contracts/dashboard';
import { formatAmount, jakartaDay, parseReconDate } from '@pay/domain';
import { BOOKS_FILE_KINDS, type ReconExport, type ReconExportRepository } from '@pay/persistence';

/** Signs a download link of an object (the platform's ObjectStore). */
export interface DownloadSigner {
  presignGet(key: string, filename: string): Promise<string>;
}

/** Queues an export's build (the platform's ReconExportProducer; the job id is the export id). */
export interface ExportQueue {
  enqueue(exportId: string): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The finance exports (docs/books.md): the day's journal, the trial balance at its close, or the
 * day's reconciliation report (every run, docs/operations/reconciliation.md), as CSV
 * through the recon files' asynchronous path (a recon_exports row with no merchant, the workers'
 * queue, a presigned URL). One use case for the ops API, the console and `admin books export`.
 * A request answers the day's export in progress, or its file if still current; a failure is
 * shown once, and the next request starts anew, as for a merchant's day file.
 */
export class BooksExports {
  constructor(
    private readonly exports: ReconExportRepository,
    private readonly store: DownloadSigner,
    private readonly queue: ExportQueue,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async request(input: { date: string; kind: string }): Promise<BooksExportView> {
    const kind = bookKind(input.kind);
    const day = parseReconDate(String(input.date ?? ''), this.now());
    if (!day.ok) throw new BackofficeError(BackofficeErrorCode.InvalidInput, day.problem, 'date');
    const latest = await this.exports.latest(null, day.date, kind);
    if (latest?.status === 'queued' || latest?.status === 'running') {
      // Enqueued again (a no-op while its job exists), so an export whose job was lost goes on now.
      await this.queue.enqueue(latest.id);
      return this.view(latest);
    }
    if (latest?.status === 'ready') {
      const shown = await this.view(latest);
      if (shown.status === 'ready') return shown;
    }
    if (latest?.status === 'failed' && !latest.failureReported) {
      await this.exports.markFailureReported(latest.id);
      return this.view(latest);
    }
    const created = await this.exports.createQueued(null, day.date, kind);
    await this.queue.enqueue(created.id);
    return this.view(created);
  }

  async get(id: string): Promise<BooksExportView> {
    const e = UUID.test(id) ? await this.exports.get(id) : null;
    if (!e || e.merchantId !== null) throw new BackofficeError(BackofficeErrorCode.ExportNotFound, 'Export not found');
    return this.view(e);
  }

  private async view(e: ReconExport): Promise<BooksExportView> {
    const date = e.date.toISOString().slice(0, 10);
    let status = e.status as BooksExportView['status'];
    let url: string | null = null;
    if (status === 'ready' && e.objectKey) {
      // A file is a snapshot: once the day's entries changed since (a file of today), or its reconciliation
      // (a re-run, a break assigned or resolved), it is stale (ask again for a current one) but still
      // served, as of its own time. A past day's entries never change.
      const { from, to } = jakartaDay(date);
      if (await this.exports.isStale(e, from, to)) status = 'stale';
      url = await this.store.presignGet(e.objectKey, `${e.kind}-${date}.csv`);
    } else if (status === 'ready') status = 'stale';
    const amount = (v: bigint | null) => (v === null ? null : formatAmount(v));
    return {
      id: e.id,
      date,
      kind: e.kind as BooksExportKind,
      status,
      rows: e.rowCount,
      entries: e.entryCount,
      totalDebit: amount(e.totalDebit),
      totalCredit: amount(e.totalCredit),
      balanced: e.totalDebit === null || e.totalCredit === null ? null : e.totalDebit === e.totalCredit,
      openBreaks: e.openBreaks,
      url,
      error: e.error,
      createdAt: e.createdAt.toISOString(),
      finishedAt: e.finishedAt?.toISOString() ?? null,
    };
  }
}

function bookKind(kind: string): BooksExportKind {
  if ((BOOKS_FILE_KINDS as readonly string[]).includes(kind)) return kind as BooksExportKind;
  throw new BackofficeError(BackofficeErrorCode.InvalidInput, `must be one of ${BOOKS_FILE_KINDS.join(', ')}`, 'kind');
}
