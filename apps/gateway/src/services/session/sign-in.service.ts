import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import {
  type DashboardSession,
  type DashboardUser,
  DashboardSessionRepository,
  DashboardUserRepository,
} from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { DashboardPrincipal } from '../../kernel/auth/session/dashboard-principal';
import { type Clock, SessionAuthenticator } from '../../kernel/auth/session/session-authenticator';
import type { Audience } from '../../kernel/auth/session/session-cookies';
import { DASHBOARD_CLOCK } from '../../gateway.tokens';
import { PasswordHasher } from './password-hasher';
import { RetryLaterError, retryAfterSecondsOf } from './retry-later.error';
import { SignInThrottle } from './sign-in-throttle';
import { totpStepOf } from './totp';

/** 423 ACCOUNT_LOCKED (confirm and totp/disable only), and the seconds left. */
export class AccountLockedError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super(ErrorCode.AccountLocked, retryAfterSeconds);
  }
}

/** A sign-in: the password and, once TOTP is on, a code; `address` is the client's (req.ip). */
export interface SignInCommand {
  email: string;
  password: string;
  totp?: string;
  address: string;
}

/** The step-up's proof: the signed-in user's password again, and the code once TOTP is on. */
export type ConfirmCommand = Pick<SignInCommand, 'password' | 'totp'>;

/**
 * Sign-in, the step-up's confirmation and sign-out, for both audiences (decision 0023). Sign-in
 * looks up only the endpoint's own users; every refusal before the second factor looks the same
 * (401 SIGN_IN_FAILED), costs the same argon2 work and the same Redis work, for a user and for an
 * unknown email alike (SignInThrottle).
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly sessions: DashboardSessionRepository,
    private readonly authenticator: SessionAuthenticator,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SignInThrottle,
    @Inject(DASHBOARD_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A new session for the user of these credentials, or the refusal. `onRefused` hears of a refusal
   * of a user of this audience (not of an unknown email, not of the TOTP_REQUIRED step, not of an
   * attempt the throttle turned away before any work), before it is thrown: the merchant's
   * activity log lists it. It must not make the answer wait (a write only a user's refusal made
   * would tell a user from an unknown email by the time it takes).
   */
  async signIn(
    audience: Audience,
    input: SignInCommand,
    onRefused?: (user: DashboardUser, refusal: ApiError) => void,
  ): Promise<{ token: string; session: DashboardSession }> {
    const attempt = { role: audience.role, email: input.email, address: input.address };
    this.hasher.checkRoom();
    await this.throttle.admit(attempt);
    const now = this.clock();
    // Only this audience's users: an operator's email on the dashboard is an unknown email there,
    // and nothing of that operator (its failure count, its console's throttle) is touched.
    const user = await this.users.findForSignIn(input.email, audience.role);
    // An unknown email, or a user who never set a password, is verified against a dummy hash: same work, same answer.
    const passwordOk = await this.hasher.verify(user?.passwordHash ?? null, input.password);
    // A right password of a disabled user is still a wrong sign-in, counted like any other.
    let proved = user !== undefined && passwordOk && user.disabledAt === null;
    if (proved && user?.totpEnabledAt && user.totpSecret) {
      if (input.totp === undefined || input.totp === '') throw new ApiError(ErrorCode.TotpRequired);
      proved = await this.useTotp(user, input.totp, now);
    }
    if (!user || !proved) {
      const refusal = new ApiError(ErrorCode.SignInFailed);
      await this.throttle.failed(attempt);
      if (user) onRefused?.(user, refusal);
      throw refusal;
    }
    // Both factors proved: the address's failures are forgotten, and so is a lockout a stolen
    // session's wrong confirmations set (decision 0023: a lock the right password and code clear).
    await this.throttle.succeeded(attempt);
    await this.users.clearFailures(user.id);
    // The merchant's users are told why, once they have proved who they are; no session is made.
    if (!user.merchantActive) {
      const refusal = new ApiError(ErrorCode.MerchantNotActive);
      onRefused?.(user, refusal);
      throw refusal;
    }
    const { token } = await this.sessions.create(user.id, now);
    return { token, session: await this.authenticator.authenticate(audience, token) };
  }

  /**
   * Step-up: the signed-in user proves its password (and TOTP code, when on) again, and the
   * session counts as freshly authenticated (the actions marked @RequiresRecentAuth() want that
   * within REAUTH_WINDOW_MS). A wrong password or code counts towards the user's lockout (5, then
   * 423 for 15 minutes, also with the right password): whoever holds a stolen session must not
   * guess the password here. Sign-in with both factors ends such a lock.
   */
  async confirm(
    audience: Audience,
    principal: DashboardPrincipal,
    sessionToken: string,
    input: ConfirmCommand,
  ): Promise<DashboardSession> {
    const now = this.clock();
    const user = await this.users.findById(principal.userId);
    if (user?.lockedUntil && user.lockedUntil > now)
      throw new AccountLockedError(retryAfterSecondsOf(user.lockedUntil.getTime() - now.getTime()));
    const passwordOk = await this.hasher.verify(user?.passwordHash ?? null, input.password);
    if (!user) throw new ApiError(ErrorCode.SignInFailed);
    if (!passwordOk) return this.fail(user.id, now);
    if (user.disabledAt !== null || user.role !== audience.role) throw new ApiError(ErrorCode.SignInFailed);
    if (user.totpEnabledAt !== null && user.totpSecret !== null) {
      if (input.totp === undefined || input.totp === '') throw new ApiError(ErrorCode.TotpRequired);
      if (!(await this.useTotp(user, input.totp, now))) return this.fail(user.id, now);
    }
    await this.users.resetFailures(user.id);
    await this.sessions.markAuthenticated(sessionToken, now);
    return this.authenticator.authenticate(audience, sessionToken);
  }

  async signOut(token: string | undefined): Promise<void> {
    if (token) await this.sessions.revoke(token, this.clock());
  }

  /** A code is used once: a replayed one (or the loser of two sign-ins sent with it at once) is a wrong code. */
  private async useTotp(user: DashboardUser, code: string, now: Date): Promise<boolean> {
    const step = totpStepOf(user.totpSecret as string, code, now);
    return step !== null && (await this.users.useTotpStep(user.id, user.totpSecret as string, step));
  }

  /** A wrong password or code at confirm: counted; the failure that reaches the limit answers 423 at once. */
  private async fail(userId: number, now: Date): Promise<never> {
    const { lockedUntil } = await this.users.recordFailure(userId, now);
    if (lockedUntil) throw new AccountLockedError(retryAfterSecondsOf(lockedUntil.getTime() - now.getTime()));
    throw new ApiError(ErrorCode.SignInFailed);
  }
}
