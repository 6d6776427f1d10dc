import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { MerchantUserCreatedView } from '@pay/contracts/dashboard';
import { DashboardUserAdmin } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import { MERCHANT_ROLES, type MerchantRole } from '@pay/domain';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MerchantId } from '../../kernel/http/path-params';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';

export class CreateMerchantUserDto {
  /** Stored lower-cased; one user per email */
  @IsString()
  @MaxLength(254)
  email!: string;

  /** The user's role (docs/access.md); left out: owner */
  @IsOptional()
  @IsIn(MERCHANT_ROLES)
  merchantRole?: MerchantRole;
}

/** Merchant dashboard users, created by operators only (decision 0023): DashboardUserAdmin, as the CLI and the ops API. */
@ApiExcludeController()
@Controller('console/api/merchants/:merchantId/users')
@UseGuards(OperatorSessionGuard)
export class ConsoleMerchantUsersController {
  constructor(@Inject(DashboardUserAdmin) private readonly users: DashboardUserAdmin) {}

  /** The user and its one-time set-password link (valid 72 h), shown only in this answer. */
  @RequiresRecentAuth()
  @Post()
  @HttpCode(201)
  @Audited('merchant-user.create', ({ params }) => `merchant:${params.merchantId}`)
  async create(
    @MerchantId() merchantId: number,
    @Body() dto: CreateMerchantUserDto,
  ): Promise<Reply<MerchantUserCreatedView>> {
    return new Reply(
      'Merchant user created; the set-password link is shown only now',
      await this.users.create({ email: dto.email, role: 'merchant', merchantId, merchantRole: dto.merchantRole }),
    );
  }
}
