import { Controller, Get, HttpCode, Inject, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import type { ConsoleUserView } from '@pay/contracts/dashboard';
import { DashboardUserAdmin } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import { AdminErrorsInterceptor, UserId } from '../../kernel/http/admin-errors';
import { type DashboardPrincipal, Principal } from '../../kernel/auth/session/dashboard-principal';
import { OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { presentConsoleUser } from './console.presenter';

/**
 * Dashboard and console users as operators see them (never a hash or a secret), and disabling or
 * enabling one: DashboardUserAdmin, as the CLI's `admin user disable|enable` and the ops API.
 * Disabling ends the user's sessions at once. An operator cannot disable itself (the console
 * would lock out the last operator that way); the CLI can.
 */
@ApiExcludeController()
@Controller('console/api/users')
@UseGuards(OperatorSessionGuard)
@UseInterceptors(AdminErrorsInterceptor)
export class ConsoleUsersController {
  constructor(@Inject(DashboardUserAdmin) private readonly users: DashboardUserAdmin) {}

  @Get()
  async list(): Promise<Reply<ConsoleUserView[]>> {
    const users = await this.users.list();
    return new Reply(`${users.length} user(s)`, users.map(presentConsoleUser));
  }

  @RequiresRecentAuth()
  @Post(':userId/disable')
  @HttpCode(200)
  @Audited('dashboard-user.disable', ({ params }) => `dashboard-user:${params.userId}`)
  async disable(@Principal() principal: DashboardPrincipal, @UserId() userId: number): Promise<Reply<ConsoleUserView>> {
    if (userId === principal.userId)
      throw new ApiError(ErrorCode.Conflict, 'You cannot disable your own user; ask another operator');
    return new Reply('Dashboard user disabled', presentConsoleUser(await this.users.disable(userId)));
  }

  @RequiresRecentAuth()
  @Post(':userId/enable')
  @HttpCode(200)
  @Audited('dashboard-user.enable', ({ params }) => `dashboard-user:${params.userId}`)
  async enable(@UserId() userId: number): Promise<Reply<ConsoleUserView>> {
    return new Reply('Dashboard user enabled', presentConsoleUser(await this.users.enable(userId)));
  }
}
