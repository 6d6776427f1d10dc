import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { type DashboardSession, DashboardSessionRepository, REAUTH_WINDOW_MS } from '@pay/persistence';
import { ApiError } from '@pay/platform';
import { DASHBOARD_CLOCK } from '../../../gateway.tokens';
import type { Audience } from './session-cookies';

export type Clock = () => Date;

/**
 * Which session a dashboard or console cookie names (decision 0023), for the session guards and
 * the session endpoints; signing in, passwords and TOTP are the session service's.
 */
@Injectable()
export class SessionAuthenticator {
  constructor(
    private readonly sessions: DashboardSessionRepository,
    @Inject(DASHBOARD_CLOCK) private readonly clock: Clock,
  ) {}

  /** The live session of a cookie value for this audience, or 401 SESSION_REQUIRED. */
  async authenticate(audience: Audience, token: string | undefined): Promise<DashboardSession> {
    const session = token ? await this.sessions.find(token, this.clock()) : undefined;
    if (!session || session.role !== audience.role || session.disabled || !session.merchantActive)
      throw new ApiError(ErrorCode.SessionRequired);
    return session;
  }

  /** 401 REAUTH_REQUIRED unless the session's password was proved within REAUTH_WINDOW_MS. */
  requireRecentAuth(session: DashboardSession): void {
    if (this.clock().getTime() - session.authenticatedAt.getTime() > REAUTH_WINDOW_MS)
      throw new ApiError(ErrorCode.ReauthRequired);
  }
}
