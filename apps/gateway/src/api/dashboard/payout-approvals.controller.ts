import { Body, Controller, Get, HttpCode, Param, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import type {
  BatchApprovalDecisionView,
  BatchAwaitingApprovalView,
  PayoutApprovalDecisionView,
  PayoutApprovalSettingsView,
  PayoutAwaitingApprovalView,
} from '@pay/contracts/dashboard';
import type { ApprovalDecision } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { type DashboardPrincipal, Principal, SessionMerchantId } from '../../kernel/auth/session/dashboard-principal';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { MERCHANT_AUDIENCE, sessionCookieOf } from '../../kernel/auth/session/session-cookies';
import { MerchantSessionGuard } from '../../kernel/auth/session/session.guards';
import { PayoutApprovalSettingsDto } from '../../kernel/dto/payout-approval.dto';
import { PayoutApprovalDecisionDto } from './payout-approvals.dto';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { type Approver, PayoutApprovalService } from '../../services/disbursement/payout-approval.service';
import { RetryLaterError } from '../../services/session/retry-later.error';
import { SignInService } from '../../services/session/sign-in.service';

const payoutTarget = ({ params }: { params: Record<string, string> }) => `payout:${params.platformTrxId}`;
const decisionDetails = ({ data, body }: { data: Record<string, unknown>; body: Record<string, unknown> }) => ({
  approval: data.approval,
  merchantTrxId: data.merchantTrxId,
  platformTrxId: data.platformTrxId,
  note: body.note ?? null,
});

/**
 * Approval before money leaves (issue 44 part 2; docs/payout-approvals.md), in the merchant
 * dashboard: the payouts awaiting approval, a decision by another user of the merchant (each one
 * confirmed with the password, and the TOTP code when on, in its body), and the settings.
 * Every decision and change is in the activity log.
 */
@Controller('dashboard/api/approvals')
@UseGuards(MerchantSessionGuard)
@ApiExcludeController()
export class DashboardPayoutApprovalsController {
  constructor(
    private readonly approvals: PayoutApprovalService,
    private readonly signIn: SignInService,
  ) {}

  @RoleReach('payouts:read')
  @RateLimit('read')
  @Get('payouts')
  async awaiting(@SessionMerchantId() merchantId: number): Promise<Reply<PayoutAwaitingApprovalView[]>> {
    return new Reply('Query success', await this.approvals.awaiting(merchantId));
  }

  /** `decision`: approve (released to the payout service) or reject (failed unsent, refunded). */
  @RoleReach('payouts:approve')
  @RateLimit('write')
  @Post('payouts/:platformTrxId/:decision')
  @Audited('payout.approval', payoutTarget, { details: decisionDetails })
  @HttpCode(200)
  async decide(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Principal() principal: DashboardPrincipal,
    @Param('platformTrxId') platformTrxId: string,
    @Param('decision') verb: 'approve' | 'reject',
    @Body() dto: PayoutApprovalDecisionDto,
  ): Promise<Reply<PayoutApprovalDecisionView>> {
    const decision = await this.confirmed(req, reply, principal, verb, dto);
    const view = await this.approvals.decide(approverOf(principal), platformTrxId, decision, dto.note ?? null);
    return new Reply(decision === 'approved' ? 'Payout approved' : 'Payout rejected', view);
  }

  @RoleReach('payouts:read')
  @RateLimit('read')
  @Get('batches')
  async awaitingBatches(@SessionMerchantId() merchantId: number): Promise<Reply<BatchAwaitingApprovalView[]>> {
    return new Reply('Query success', await this.approvals.awaitingBatches(merchantId));
  }

  /** One decision for every row of the batch: approve (sent) or reject (failed unsent, refunded). */
  @RoleReach('payouts:approve')
  @RateLimit('write')
  @Post('batches/:batchId/:decision')
  @Audited('batch.approval', ({ params }) => `batch:${params.batchId}`, {
    details: ({ data, body }) => ({ approval: data.approval, payouts: data.payouts, note: body.note ?? null }),
  })
  @HttpCode(200)
  async decideBatch(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Principal() principal: DashboardPrincipal,
    @Param('batchId') batchId: string,
    @Param('decision') verb: 'approve' | 'reject',
    @Body() dto: PayoutApprovalDecisionDto,
  ): Promise<Reply<BatchApprovalDecisionView>> {
    const decision = await this.confirmed(req, reply, principal, verb, dto);
    const view = await this.approvals.decideBatch(approverOf(principal), batchId, decision, dto.note ?? null);
    return new Reply(decision === 'approved' ? 'Batch approved' : 'Batch rejected', view);
  }

  /** The decision the path names, once the password (and TOTP code) in the body are proved for it. */
  private async confirmed(
    req: FastifyRequest,
    reply: FastifyReply,
    principal: DashboardPrincipal,
    verb: string,
    dto: PayoutApprovalDecisionDto,
  ): Promise<ApprovalDecision> {
    if (verb !== 'approve' && verb !== 'reject') throw new ApiError(ErrorCode.NotFound);
    try {
      await this.signIn.confirm(MERCHANT_AUDIENCE, principal, sessionCookieOf(req, MERCHANT_AUDIENCE) as string, {
        password: dto.password,
        totp: dto.totp,
      });
    } catch (err) {
      if (err instanceof RetryLaterError) void reply.header('Retry-After', String(err.retryAfterSeconds));
      throw err;
    }
    return verb === 'approve' ? 'approved' : 'rejected';
  }

  @RoleReach('payouts:read')
  @RateLimit('read')
  @Get('settings')
  async settings(@SessionMerchantId() merchantId: number): Promise<Reply<PayoutApprovalSettingsView>> {
    return new Reply('Query success', await this.approvals.settings(merchantId));
  }

  @RoleReach('settings:manage')
  @RateLimit('write')
  @RequiresRecentAuth()
  @Put('settings')
  @Audited('merchant.payout-approvals', ({ principal }) => `merchant:${principal?.merchantId}`)
  @HttpCode(200)
  async setSettings(
    @Principal() principal: DashboardPrincipal,
    @Body() dto: PayoutApprovalSettingsDto,
  ): Promise<Reply<PayoutApprovalSettingsView>> {
    const approver = approverOf(principal);
    if (!(await this.approvals.allows(approver, 'settings:manage')))
      throw new ApiError(ErrorCode.ApprovalNotAllowed, "Only the merchant's owner sets payout approvals");
    return new Reply('Approval settings set', await this.approvals.setSettings(approver.merchantId, dto));
  }
}

function approverOf(principal: DashboardPrincipal): Approver {
  return { userId: principal.userId, merchantId: principal.merchantId as number };
}
