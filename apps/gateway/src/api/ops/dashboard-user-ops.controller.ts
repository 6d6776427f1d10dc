import { Body, Controller, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { DashboardUserAdmin } from '@pay/backoffice';
import { MERCHANT_ROLES, type MerchantRole } from '@pay/domain';
import { Reply } from '@pay/platform';
import { IsIn, IsInt, IsOptional, IsPositive, IsString, MaxLength } from 'class-validator';
import { ApiEnvelope, errorResponses } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps, OPS_COMMON_ERRORS } from '../../kernel/openapi/ops-api.decorator';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { type DashboardPrincipal, SignedInOperator } from '../../kernel/auth/session/dashboard-principal';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { UserId } from '../../kernel/http/path-params';

class CreateDashboardUserDto {
  @ApiProperty({
    example: 'finance@tokosinarjaya.example',
    maxLength: 254,
    description: 'Stored lower-cased; one user per email',
  })
  @IsString()
  @MaxLength(254)
  email!: string;

  @ApiProperty({
    enum: ['merchant', 'operator'],
    example: 'merchant',
    description: 'merchant: signs in to the merchant dashboard; operator: to the operator console',
  })
  @IsIn(['merchant', 'operator'])
  role!: 'merchant' | 'operator';

  @ApiPropertyOptional({
    example: 7,
    description: 'The merchant of a merchant user (required for role merchant, absent for operator)',
  })
  @IsOptional()
  @IsInt()
  @IsPositive()
  merchantId?: number;

  @ApiPropertyOptional({
    enum: MERCHANT_ROLES,
    example: 'finance',
    description: "A merchant user's role (docs/access.md); left out: owner. Absent for an operator",
  })
  @IsOptional()
  @IsIn(MERCHANT_ROLES)
  merchantRole?: MerchantRole;
}

class SetMerchantRoleDto {
  @ApiProperty({ enum: MERCHANT_ROLES, example: 'viewer', description: 'The role from now on (docs/access.md)' })
  @IsIn(MERCHANT_ROLES)
  merchantRole!: MerchantRole;
}

@ApiSchema({ name: 'DashboardUserLink' })
class DashboardUserLinkSchema {
  @ApiProperty({ example: 12 }) userId!: number;
  @ApiProperty({ example: 'finance@tokosinarjaya.example' }) email!: string;
  @ApiProperty({ enum: ['merchant', 'operator'], example: 'merchant' }) role!: string;
  @ApiProperty({ type: Number, nullable: true, example: 7 }) merchantId!: number | null;
  @ApiProperty({ enum: MERCHANT_ROLES, nullable: true, example: 'finance', description: 'null for an operator' })
  merchantRole!: MerchantRole | null;
  @ApiProperty({
    example: 'https://dashboard.example/dashboard/#/set-password/q9Zk2M4T7pA3mXc8…',
    description:
      'One-time link to set the password (DASHBOARD_PUBLIC_URL or CONSOLE_PUBLIC_URL); valid 72 h, shown only now. Earlier unused links of the user stop working.',
  })
  setPasswordUrl!: string;
}

@ApiSchema({ name: 'DashboardUser' })
class DashboardUserSchema {
  @ApiProperty({ example: 12 }) userId!: number;
  @ApiProperty({ example: 'finance@tokosinarjaya.example' }) email!: string;
  @ApiProperty({ enum: ['merchant', 'operator'], example: 'merchant' }) role!: string;
  @ApiProperty({ type: Number, nullable: true, example: 7 }) merchantId!: number | null;
  @ApiProperty({ enum: MERCHANT_ROLES, nullable: true, example: 'finance', description: 'null for an operator' })
  merchantRole!: MerchantRole | null;
  @ApiProperty({ example: true, description: 'Whether the user has set a password' }) passwordSet!: boolean;
  @ApiProperty({ example: false }) totpEnabled!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'Locked after 5 failed sign-ins, until this time',
  })
  lockedUntil!: string | null;
  @ApiProperty({ example: false }) disabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-27T02:00:00.000Z' }) createdAt!: string;
}

const ApiUserIdParam = () =>
  ApiParam({
    name: 'userId',
    schema: { type: 'integer', minimum: 1 },
    example: 12,
    description: 'Anything that is not a user id answers 404 NOT_FOUND',
  });

/**
 * The merchant dashboard's and operator console's users over HTTP (the CLI's `admin user ...`):
 * a user gets a one-time link to set a password, never a password from an operator. The list,
 * disabling and enabling are also the console's (/console/api/users: an operator's session, a
 * recent password, the audit log; an operator cannot disable itself): the same handlers.
 */
@ApiOps('Dashboard users')
@Controller()
@UseGuards(OperatorGuard)
export class DashboardUserOpsController {
  constructor(private readonly users: DashboardUserAdmin) {}

  @Post('ops/dashboard-users')
  @Audited('dashboard-user.create', ({ data }) => `dashboard-user:${String(data.userId)}`)
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createDashboardUser',
    summary: 'Create a merchant user or an operator, with a one-time set-password link (shown only now)',
  })
  @ApiEnvelope(DashboardUserLinkSchema, {
    message: 'Dashboard user created; send them the set-password link',
    status: 201,
  })
  @errorResponses(OPS_COMMON_ERRORS, [ErrorCode.Conflict])
  async create(@Body() dto: CreateDashboardUserDto) {
    return new Reply('Dashboard user created; send them the set-password link', await this.users.create(dto));
  }

  @Get(['ops/dashboard-users', 'console/api/users'])
  @ApiOperation({ operationId: 'listDashboardUsers', summary: 'Every dashboard and console user' })
  @ApiEnvelope(DashboardUserSchema, { message: '1 user(s)', messagePattern: '^\\d+ user\\(s\\)$', isArray: true })
  async list() {
    const users = await this.users.list();
    return new Reply(`${users.length} user(s)`, users);
  }

  @RequiresRecentAuth()
  @Post(['ops/dashboard-users/:userId/reset-link', 'console/api/users/:userId/reset-link'])
  @Audited('dashboard-user.reset-link', ({ params }) => `dashboard-user:${params.userId}`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resetDashboardUserLink',
    summary: 'A new one-time set-password link (shown only now); the current password works until the link is used',
  })
  @ApiUserIdParam()
  @ApiEnvelope(DashboardUserLinkSchema, { message: 'Set-password link created' })
  async resetLink(@UserId() userId: number) {
    return new Reply('Set-password link created', await this.users.resetLink(userId));
  }

  @Post(['ops/dashboard-users/:userId/unlock', 'console/api/users/:userId/unlock'])
  @Audited('dashboard-user.unlock', ({ params }) => `dashboard-user:${params.userId}`)
  @HttpCode(200)
  @ApiOperation({ operationId: 'unlockDashboardUser', summary: 'Clear a lockout after failed sign-ins' })
  @ApiUserIdParam()
  @ApiEnvelope(DashboardUserSchema, { message: 'Dashboard user unlocked' })
  async unlock(@UserId() userId: number) {
    return new Reply('Dashboard user unlocked', await this.users.unlock(userId));
  }

  @RequiresRecentAuth()
  @Post(['ops/dashboard-users/:userId/disable', 'console/api/users/:userId/disable'])
  @HttpCode(200)
  @Audited('dashboard-user.disable', ({ params }) => `dashboard-user:${params.userId}`)
  @ApiOperation({
    operationId: 'disableDashboardUser',
    summary:
      'Disable a user: sign-in stops working, every session of the user ends at once, unused set-password links stop working',
    description: 'Disabling a disabled user changes nothing. Enable the user again with enableDashboardUser.',
  })
  @ApiUserIdParam()
  @ApiEnvelope(DashboardUserSchema, { message: 'Dashboard user disabled' })
  async disable(@SignedInOperator() operator: DashboardPrincipal | undefined, @UserId() userId: number) {
    const by = operator && { operatorUserId: operator.userId };
    return new Reply('Dashboard user disabled', await this.users.disable(userId, by));
  }

  @RequiresRecentAuth()
  @Put(['ops/dashboard-users/:userId/role', 'console/api/users/:userId/role'])
  @HttpCode(200)
  @Audited('dashboard-user.role', ({ params }) => `dashboard-user:${params.userId}`)
  @ApiOperation({
    operationId: 'setDashboardUserRole',
    summary: "Change a merchant user's role (owner, developer, finance, viewer); it applies on the user's next request",
    description:
      'An operator has no merchant role (400). A change that would leave the merchant without an enabled owner is 409 CONFLICT: make another user owner first.',
  })
  @ApiUserIdParam()
  @ApiEnvelope(DashboardUserSchema, { message: 'Dashboard user role set' })
  @errorResponses(OPS_COMMON_ERRORS, [ErrorCode.Conflict])
  async setRole(@UserId() userId: number, @Body() dto: SetMerchantRoleDto) {
    return new Reply('Dashboard user role set', await this.users.setMerchantRole(userId, dto.merchantRole));
  }

  @RequiresRecentAuth()
  @Post(['ops/dashboard-users/:userId/enable', 'console/api/users/:userId/enable'])
  @HttpCode(200)
  @Audited('dashboard-user.enable', ({ params }) => `dashboard-user:${params.userId}`)
  @ApiOperation({
    operationId: 'enableDashboardUser',
    summary: 'Let a disabled user sign in again (its earlier sessions stay ended)',
  })
  @ApiUserIdParam()
  @ApiEnvelope(DashboardUserSchema, { message: 'Dashboard user enabled' })
  async enable(@UserId() userId: number) {
    return new Reply('Dashboard user enabled', await this.users.enable(userId));
  }
}
