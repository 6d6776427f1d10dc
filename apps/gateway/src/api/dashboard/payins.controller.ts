import { randomBytes } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import type {
  CallbackResendView,
  HistoryPage,
  PayinDetailView,
  PayinRefundView,
  PayinGeneratedView,
  PayinListItemView,
} from '@pay/contracts/dashboard';
import {
  DeliveryHistoryRepository,
  HistoryRepository,
  type Payin,
  PayinRefundRepository,
  PayinRepository,
  RECON_COLUMNS,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import type { FastifyReply } from 'fastify';
import { MerchantAdmin, SettlementRequests } from '@pay/backoffice';
import { ApiError, Reply } from '@pay/platform';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.tokens';
import { presentPayinItem, toPage } from '../../kernel/presenters/history.presenter';
import { DEFAULT_LIMIT } from '../../kernel/dto/list-query.dto';
import {
  payinStatus,
  presentGenerated,
  presentPayinWithRefunds,
  presentRefund,
} from '../../kernel/presenters/payin.presenter';
import { PayinRefundService } from '../../services/payin/payin-refund.service';
import { qrImageOf, QrisService } from '../../services/payin/qris.service';
import { SandboxPayService } from '../../services/payin/sandbox-pay.service';
import { SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { DashboardPayinListQuery } from './dashboard-list-query.dto';
import { jakartaOrNull, presentDeliveryWithAttempts } from './dashboard.presenter';
import { CreateDashboardPayinDto, RefundDashboardPayinDto, SimulatePayinDto } from './payins.dto';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { csvName, everyRow, payinCsvRow, sendCsv } from './list-csv';

/** The merchant's QRIS pay-ins: list, detail (with the QR while it can be paid), create, and in the sandbox, pay. */
@Controller('dashboard/api')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardPayinsController {
  constructor(
    private readonly history: HistoryRepository,
    private readonly payins: PayinRepository,
    private readonly refunds: PayinRefundRepository,
    private readonly refunder: PayinRefundService,
    private readonly deliveries: DeliveryHistoryRepository,
    private readonly webhookDeliveries: WebhookDeliveryRepository,
    private readonly qris: QrisService,
    private readonly sandbox: SandboxPayService,
    private readonly merchants: MerchantAdmin,
    private readonly settlements: SettlementRequests,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @RateLimit('read')
  @Get('payins')
  @RoleReach('payins:read')
  async list(
    @SessionMerchantId() merchantId: number,
    @Query() q: DashboardPayinListQuery,
  ): Promise<Reply<HistoryPage<PayinListItemView>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const [merchant, rows] = await Promise.all([
      this.merchant(merchantId),
      this.history.payins(q.window(merchantId, limit + 1), q.status),
    ]);
    const now = new Date();
    return new Reply(
      'Query success',
      toPage(
        'payin',
        rows,
        limit,
        (p) => p,
        (p) => presentPayinItem(p, merchant, now),
      ),
    );
  }

  /** Every pay-in the list's filters match, as the recon CSV writes them (list-csv). */
  @RateLimit('export')
  @Get('payins.csv')
  @RoleReach('reports:read')
  async csv(
    @SessionMerchantId() merchantId: number,
    @Query() q: DashboardPayinListQuery,
    @Res() reply: FastifyReply,
  ): Promise<unknown> {
    const [merchant, rows] = await Promise.all([
      this.merchant(merchantId),
      everyRow((w) => this.history.payins(w, q.status), q.window(merchantId, 0)),
    ]);
    const now = new Date();
    return sendCsv(
      reply,
      csvName('payins', merchantId),
      RECON_COLUMNS,
      rows.map((p) => payinCsvRow(p, merchant.name, now)),
    );
  }

  @RateLimit('read')
  @Get('payins/:merchantTrxId')
  @RoleReach('payins:read')
  async show(
    @SessionMerchantId() merchantId: number,
    @Param('merchantTrxId') merchantTrxId: string,
  ): Promise<Reply<PayinDetailView>> {
    const payin = await this.find(merchantId, merchantTrxId);
    return new Reply('Query success', await this.detail(payin, await this.merchant(merchantId)));
  }

  @RateLimit('write')
  @Post('payins')
  @RoleReach('payins:write')
  @Audited('payin.create', ({ data }) => `payin:${String(data.merchantTrxId)}`)
  @HttpCode(201)
  async create(
    @SessionMerchantId() merchantId: number,
    @Body() dto: CreateDashboardPayinDto,
  ): Promise<Reply<PayinGeneratedView>> {
    const merchantTrxId = dto.merchantTrxId ?? `DASH-${randomBytes(8).toString('hex').toUpperCase()}`;
    const { payin, qrImage } = await this.qris.generate(merchantId, {
      merchantTrxId,
      amount: dto.amount,
      withImage: true,
    });
    return new Reply('QRIS generated', presentGenerated(payin, new Date(), qrImage));
  }

  @RateLimit('write')
  @Post('payins/:merchantTrxId/simulate')
  @RoleReach('payins:write')
  @Audited('payin.simulate', ({ params }) => `payin:${params.merchantTrxId}`)
  @HttpCode(200)
  async simulate(
    @SessionMerchantId() merchantId: number,
    @Param('merchantTrxId') merchantTrxId: string,
    @Body() dto: SimulatePayinDto,
  ): Promise<Reply<PayinDetailView>> {
    if (!this.config.payins.sandbox) throw new NotFoundException();
    const paid = await this.sandbox.pay(merchantId, { merchantTrxId, status: dto.status });
    return new Reply('Sandbox payment sent', await this.detail(paid, await this.merchant(merchantId)));
  }

  /** A refund of a paid pay-in, in full or in part: the merchant API's rules and answers (POST /api/v1/payin/refund). */
  @RateLimit('write')
  @Post('payins/:merchantTrxId/refunds')
  @RoleReach('refunds:write')
  @Audited('payin.refund', ({ data }) => `refund:${String(data.refundId)}`)
  @HttpCode(200)
  async refund(
    @SessionMerchantId() merchantId: number,
    @Param('merchantTrxId') merchantTrxId: string,
    @Body() dto: RefundDashboardPayinDto,
  ): Promise<Reply<PayinRefundView>> {
    const refund = await this.refunder.refund(merchantId, {
      merchantTrxId,
      refundId: dto.refundId ?? `DASH-RF-${randomBytes(8).toString('hex').toUpperCase()}`,
      amount: dto.amount,
      reason: dto.reason,
    });
    return new Reply('Refund accepted', presentRefund(refund));
  }

  /** Its latest callback again (same event id and body), from the start of the retry schedule. */
  @RateLimit('write')
  @Post('payins/:merchantTrxId/callback/resend')
  @RoleReach('webhooks:manage')
  @Audited('payin.callback-resend', ({ params }) => `payin:${params.merchantTrxId}`)
  @HttpCode(200)
  async resend(
    @SessionMerchantId() merchantId: number,
    @Param('merchantTrxId') merchantTrxId: string,
  ): Promise<Reply<CallbackResendView>> {
    const payin = await this.find(merchantId, merchantTrxId);
    const callbacks = await this.deliveries.ofTransaction(merchantId, { payinId: payin.id });
    const latest = callbacks[callbacks.length - 1];
    if (!latest)
      throw new ApiError(
        ErrorCode.NotFound,
        'This pay-in has no callback yet: it is sent once the pay-in is final, to its notifyUrl or your default callback URL',
      );
    const resent = await this.webhookDeliveries.resend(latest.id, new Date());
    if (!resent) throw new ApiError(ErrorCode.Conflict, 'A callback attempt is in progress; try again in a moment');
    return new Reply('Callback queued for resend', {
      deliveryId: resent.id,
      eventId: resent.eventId,
      status: resent.status,
    });
  }

  /** Sandbox only: the merchant's paid pay-ins settled now (pending to available), so a payout can be tried at once. */
  @RateLimit('write')
  @Post('sandbox/settle')
  @RoleReach('payins:write')
  @Audited('payin.settle-now', ({ data }) => `settlement:${String(data.payinCount)} pay-ins`)
  @HttpCode(200)
  async settleNow(@SessionMerchantId() merchantId: number): Promise<Reply<{ payinCount: number; requested: boolean }>> {
    if (!this.config.payins.sandbox) throw new NotFoundException();
    const { planned } = await this.settlements.request(merchantId, undefined);
    const requested = planned?.requested ?? false;
    return new Reply(requested ? 'Settlement requested' : 'Nothing to settle', {
      payinCount: requested ? (planned?.payinCount ?? 0) : 0,
      requested,
    });
  }

  private async find(merchantId: number, merchantTrxId: string): Promise<Payin> {
    const payin = await this.payins.find(merchantId, merchantTrxId);
    if (!payin) throw new ApiError(ErrorCode.TransactionNotFound);
    return payin;
  }

  private merchant(merchantId: number) {
    return this.merchants.get(merchantId);
  }

  /** The list's fields, the code (and its image while it can be paid), and its callbacks. */
  private async detail(payin: Payin, merchant: { id: number; name: string }): Promise<PayinDetailView> {
    const now = new Date();
    const payable = payinStatus(payin, now) === 'pending' && payin.qrisPayload !== null;
    const [qrImage, callbacks, refunds] = await Promise.all([
      payable ? qrImageOf(payin.qrisPayload ?? '') : null,
      this.deliveries.ofTransaction(merchant.id, { payinId: payin.id }),
      this.refunds.ofPayin(payin.id),
    ]);
    const {
      refunds: refundViews,
      refundedAmount,
      refundableAmount,
    } = presentPayinWithRefunds(payin, merchant, now, refunds);
    return {
      ...presentPayinItem(payin, merchant, now),
      refunds: refundViews,
      refundedAmount,
      refundableAmount,
      qrString: payin.qrisPayload,
      qrImage,
      expiredAt: jakartaOrNull(payin.expiresAt),
      issuer: payin.issuer,
      failureReason: payin.failureReason,
      notifyUrl: payin.notifyUrl,
      callbacks: callbacks.map(presentDeliveryWithAttempts),
    };
  }
}
