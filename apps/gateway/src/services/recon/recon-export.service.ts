import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { jakartaDay, parseReconDate } from '@pay/domain';
import {
  type AuthenticatedMerchant,
  type ReconExport,
  ReconExportRepository,
  type ReconFileKind,
} from '@pay/persistence';
import { ApiError, type ObjectStore, type ReconExportProducer } from '@pay/platform';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, OBJECT_STORE, RECON_PRODUCER } from '../../gateway.tokens';
import type { RequestBudget } from '../../kernel/rate-limit/request-budget';

/** What an export request needs of the merchant: who, since when, and its export budget. */
export type ReconMerchant = Pick<AuthenticatedMerchant, 'id' | 'createdAt' | 'rateLimits'>;

/** A day file of one date (YYYY-MM-DD, Asia/Jakarta) for one merchant: its pay-ins (the recon CSV), payouts or movements. */
export interface ReconExportCommand {
  merchant: ReconMerchant;
  date: string;
  kind?: ReconFileKind;
}

export type ReconRequest =
  { status: 'queued'; export: ReconExport } | { status: 'ready'; export: ReconExport; download: string };

/** A job's state as the dashboard shows it; `stale`: ready, but a pay-in of the day changed since (request the day again). */
export type ReconJobState =
  | { export: ReconExport; status: 'queued' | 'running' | 'failed' | 'stale' }
  | { export: ReconExport; status: 'ready'; download: string };

/** What a merchant at its cap of exports in progress is told to wait: a typical export takes seconds. */
const OUTSTANDING_RETRY_AFTER_SECONDS = 10;

/**
 * The recon CSV of one date as an asynchronous job (spec 4.6; the API's reconFile and the
 * merchant dashboard). First request queues it; the same request while it runs answers the same
 * job; once ready, a fresh presigned URL each time. A file whose pay-ins changed since it was built
 * is rebuilt (a new job); a failed export is reported once, and the next request starts a new one.
 *
 * Starting a new export counts against the merchant's export budget (RATE_LIMIT_EXPORT_PER_MINUTE)
 * and is refused while RECON_EXPORT_MAX_OUTSTANDING of its exports are queued or running, so one
 * merchant's backlog never delays another's export.
 */
@Injectable()
export class ReconExportService {
  constructor(
    private readonly exports: ReconExportRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(RECON_PRODUCER) private readonly producer: ReconExportProducer,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** `budget`: the request's export budget, spent only when a new export starts. */
  async request({ merchant, date, kind = 'payins' }: ReconExportCommand, budget: RequestBudget): Promise<ReconRequest> {
    const day = parseReconDate(date, new Date(), merchant.createdAt);
    if (!day.ok)
      throw new ApiError(ErrorCode.ValidationError, `date: ${day.problem}`, [{ field: 'date', message: day.problem }]);
    const merchantId = merchant.id;
    const latest = await this.exports.latest(merchantId, day.date, kind);

    if (latest?.status === 'queued' || latest?.status === 'running') {
      // Enqueued again on every check (a no-op while its job exists: the job id is the export id), so an export
      // whose job was never queued (Redis away at that moment) or lost (Redis restarted mid-attempt) goes on at
      // the next check instead of waiting for the workers' sweeper.
      await this.producer.enqueue(latest.id);
      return { status: 'queued', export: latest };
    }
    if (latest?.status === 'ready' && latest.objectKey && !(await this.exports.isStale(latest, day.from, day.to))) {
      return { status: 'ready', export: latest, download: await this.download(latest) };
    }
    if (latest?.status === 'failed' && !latest.failureReported) {
      await this.exports.markFailureReported(latest.id);
      throw new ApiError(
        ErrorCode.ReconExportFailed,
        `The ${kind === 'payins' ? '' : `${kind} `}export for ${day.date} failed; send the request again to start a new export`,
      );
    }
    await budget.spend();
    const cap = this.config.rateLimits.maxOutstandingExports;
    const created = await this.exports.createQueuedWithin(merchantId, day.date, cap, kind);
    if (!created) {
      budget.refuse(
        OUTSTANDING_RETRY_AFTER_SECONDS,
        `${cap} of your exports are already being prepared; retry after ${OUTSTANDING_RETRY_AFTER_SECONDS} s, once one of them is ready`,
      );
    }
    await this.producer.enqueue(created.id);
    return { status: 'queued', export: created };
  }

  /** One of the merchant's jobs by id; null for an unknown id or another merchant's job. Starts nothing. */
  async job(merchantId: number, jobId: string): Promise<ReconJobState | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(jobId)) return null;
    const e = await this.exports.get(jobId);
    if (!e || e.merchantId !== merchantId) return null;
    if (e.status !== 'ready') return { export: e, status: e.status as 'queued' | 'running' | 'failed' };
    const { from, to } = jakartaDay(reconDateOf(e));
    if (!e.objectKey || (await this.exports.isStale(e, from, to))) return { export: e, status: 'stale' };
    return { export: e, status: 'ready', download: await this.download(e) };
  }

  private download(e: ReconExport): Promise<string> {
    // The pay-ins file keeps its name (recon-...); the others are named by their kind.
    const name = e.kind === 'payins' ? 'recon' : e.kind;
    return this.store.presignGet(e.objectKey as string, `${name}-${e.merchantId}-${reconDateOf(e)}.csv`);
  }
}

/** The export's day, YYYY-MM-DD (stored as that day's UTC midnight). */
export function reconDateOf(e: ReconExport): string {
  return e.date.toISOString().slice(0, 10);
}
