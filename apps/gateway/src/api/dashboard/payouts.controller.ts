import { Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import type { CallbackResendView, HistoryPage, PayoutDetailView, PayoutListItemView } from '@pay/contracts/dashboard';
import {
  DeliveryHistoryRepository,
  type Disbursement,
  DisbursementRepository,
  HistoryRepository,
  PAYOUT_FILE_COLUMNS,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import type { FastifyReply } from 'fastify';
import { MerchantAdmin } from '@pay/backoffice';
import { ApiError, Reply } from '@pay/platform';
import { presentDisbursementItem, toPage } from '../../kernel/presenters/history.presenter';
import { DEFAULT_LIMIT } from '../../kernel/dto/list-query.dto';
import { SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { DashboardPayoutListQuery } from './dashboard-list-query.dto';
import { jakartaOrNull, presentDeliveryWithAttempts } from './dashboard.presenter';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { csvName, everyRow, payoutCsvRow, sendCsv } from './list-csv';

/** The merchant's payouts (disbursements): list, detail with every callback attempt, resend of the final callback. */
@Controller('dashboard/api')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardPayoutsController {
  constructor(
    private readonly history: HistoryRepository,
    private readonly disbursements: DisbursementRepository,
    private readonly deliveryHistory: DeliveryHistoryRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly merchants: MerchantAdmin,
  ) {}

  @RateLimit('read')
  @Get('payouts')
  @RoleReach('payouts:read')
  async list(
    @SessionMerchantId() merchantId: number,
    @Query() q: DashboardPayoutListQuery,
  ): Promise<Reply<HistoryPage<PayoutListItemView>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const [merchant, rows] = await Promise.all([
      this.merchants.get(merchantId),
      this.history.disbursements(q.window(merchantId, limit + 1), q.status),
    ]);
    return new Reply(
      'Query success',
      toPage(
        'disbursement',
        rows,
        limit,
        (d) => d,
        (d) => presentDisbursementItem(d, merchant),
      ),
    );
  }

  /** Every payout the list's filters match, as the payouts day file writes them (list-csv). */
  @RateLimit('export')
  @Get('payouts.csv')
  @RoleReach('reports:read')
  async csv(
    @SessionMerchantId() merchantId: number,
    @Query() q: DashboardPayoutListQuery,
    @Res() reply: FastifyReply,
  ): Promise<unknown> {
    const [merchant, rows] = await Promise.all([
      this.merchants.get(merchantId),
      everyRow((w) => this.history.disbursements(w, q.status), q.window(merchantId, 0)),
    ]);
    return sendCsv(
      reply,
      csvName('payouts', merchantId),
      PAYOUT_FILE_COLUMNS,
      rows.map((d) => payoutCsvRow(d, merchant.name)),
    );
  }

  @RateLimit('read')
  @Get('payouts/:merchantTrxId')
  @RoleReach('payouts:read')
  async show(
    @SessionMerchantId() merchantId: number,
    @Param('merchantTrxId') merchantTrxId: string,
  ): Promise<Reply<PayoutDetailView>> {
    const d = await this.find(merchantId, merchantTrxId);
    const [merchant, callbacks] = await Promise.all([
      this.merchants.get(merchantId),
      this.deliveryHistory.ofTransaction(merchantId, { disbursementId: d.id }),
    ]);
    return new Reply('Query success', {
      ...presentDisbursementItem(d, merchant),
      bankCode: d.bankCode,
      notifyUrl: d.notifyUrl,
      failureReason: d.failureReason,
      failed_at: jakartaOrNull(d.failedAt),
      callbacks: callbacks.map(presentDeliveryWithAttempts),
    });
  }

  /** Its latest callback again (same event id and body), from the start of the retry schedule. */
  @RateLimit('write')
  @Post('payouts/:merchantTrxId/callback/resend')
  @RoleReach('webhooks:manage')
  @Audited('payout.callback-resend', ({ params }) => `payout:${params.merchantTrxId}`)
  @HttpCode(200)
  async resend(
    @SessionMerchantId() merchantId: number,
    @Param('merchantTrxId') merchantTrxId: string,
  ): Promise<Reply<CallbackResendView>> {
    const d = await this.find(merchantId, merchantTrxId);
    const callbacks = await this.deliveryHistory.ofTransaction(merchantId, { disbursementId: d.id });
    const latest = callbacks[callbacks.length - 1];
    if (!latest)
      throw new ApiError(ErrorCode.NotFound, 'This payout has no callback yet: it is sent once the payout is final');
    const resent = await this.deliveries.resend(latest.id, new Date());
    if (!resent) throw new ApiError(ErrorCode.Conflict, 'A callback attempt is in progress; try again in a moment');
    return new Reply('Callback queued for resend', {
      deliveryId: resent.id,
      eventId: resent.eventId,
      status: resent.status,
    });
  }

  private async find(merchantId: number, merchantTrxId: string): Promise<Disbursement> {
    const d = await this.disbursements.findLive(merchantId, merchantTrxId);
    if (!d) throw new ApiError(ErrorCode.TransactionNotFound);
    return d;
  }
}
