import { type PrismaClient } from '@pay/persistence';
import { parse } from 'csv-parse/sync';
import type { ChaosClient } from './chaos-client';

export interface ReconDownload {
  merchantId: number;
  jobId: string;
  csv: string;
}

const COLUMNS = [
  'merchantTrxId',
  'platformTrxId',
  'merchantName',
  'status',
  'amount',
  'fee',
  'netAmount',
  'feePercentage',
  'feeFixed',
  'createdAt',
  'success_at',
  'rrn',
  'issuer',
  'nmid',
  'settlementId',
];

/**
 * Recon exports as a merchant runs them (spec 4.6): request, poll the same request until
 * 'Export ready', download the CSV (retried while object storage is away). The files are kept
 * and checked against the rows once the run is quiet.
 */
export class ReconExports {
  readonly downloads: ReconDownload[] = [];
  readonly failures: string[] = [];
  /** Exports that never became ready: the job last answered, looked up by check() */
  private readonly stuck: { merchantId: number; jobId?: string; last: string }[] = [];
  requested = 0;
  /** CSV rows checked by check() */
  rows = 0;
  private readonly inFlight: Promise<void>[] = [];

  constructor(
    private readonly client: ChaosClient,
    private readonly date: string,
    private readonly deadlineMs = 300_000,
  ) {}

  /** Starts one export; it runs on its own and is awaited by settle(). */
  start(merchant: { id: number; token: string }): Promise<void> {
    this.requested++;
    const run = this.run(merchant).catch(
      (err: unknown) => void this.failures.push(`recon export of merchant ${merchant.id}: ${String(err)}`),
    );
    this.inFlight.push(run);
    return run;
  }

  async settle(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  private async run(m: { id: number; token: string }): Promise<void> {
    const deadline = Date.now() + this.deadlineMs;
    let last = '';
    let jobId: string | undefined;
    while (Date.now() < deadline) {
      const answer = await this.client.post('payin/reconFile', m.token, { date: this.date });
      last = `${answer.status} ${answer.body.message ?? answer.body.code}`;
      if (answer.status !== 200) break;
      const data = answer.body.data as { jobId: string; download?: string };
      jobId = data.jobId;
      if (answer.body.message === 'Export ready' && data.download) {
        this.downloads.push({ merchantId: m.id, jobId: data.jobId, csv: await this.download(data.download, deadline) });
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    this.stuck.push({ merchantId: m.id, jobId, last });
  }

  private async download(url: string, deadline: number): Promise<string> {
    for (;;) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
        if (res.ok) return await res.text();
        if (Date.now() > deadline) throw new Error(`download answered ${res.status}`);
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Each file: the recon columns, the merchant's own pay-ins only, once each, as many rows as its job counted. */
  async check(prisma: PrismaClient): Promise<string[]> {
    const v = [...this.failures];
    for (const s of this.stuck) {
      const job = s.jobId ? await prisma.reconExport.findUnique({ where: { id: s.jobId } }) : null;
      const state = job
        ? `job ${job.id} ${job.status}, created ${job.createdAt.toISOString()}, started ${job.startedAt?.toISOString() ?? 'never'}${job.error ? `, error ${job.error}` : ''}`
        : 'no job';
      v.push(`recon export of merchant ${s.merchantId} never ready (last answer: ${s.last}; ${state})`);
    }
    for (const d of this.downloads) {
      const rows = parse(d.csv, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
      const header = d.csv.split('\n', 1)[0];
      if (header !== COLUMNS.join(',')) v.push(`recon ${d.jobId}: header ${header}`);
      const ids = rows.map((r) => r.merchantTrxId);
      this.rows += ids.length;
      const own = await prisma.payin.count({ where: { merchantId: d.merchantId, merchantTrxId: { in: ids } } });
      if (own !== ids.length || new Set(ids).size !== ids.length)
        v.push(
          `recon ${d.jobId} (merchant ${d.merchantId}): ${ids.length} rows, ${new Set(ids).size} distinct, ${own} the merchant's`,
        );
      const job = await prisma.reconExport.findUnique({ where: { id: d.jobId } });
      if (job?.status !== 'ready' || job.rowCount !== ids.length)
        v.push(`recon ${d.jobId}: job ${job?.status} with ${job?.rowCount} rows, file has ${ids.length}`);
    }
    return v;
  }
}
