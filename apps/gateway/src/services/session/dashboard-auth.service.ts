import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import {
  type DashboardSession,
  type DashboardUser,
  DashboardPasswordLinkRepository,
  DashboardSessionRepository,
  DashboardUserRepository,
  hashPassword,
  passwordProblem,
  verifyPassword,
} from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { DashboardPrincipal } from '../../kernel/auth/session/dashboard-principal';
import { type Clock, SessionAuthenticator } from '../../kernel/auth/session/session-authenticator';
import type { Audience } from '../../kernel/auth/session/session-cookies';
import { DASHBOARD_CLOCK } from '../../gateway.tokens';
import { newTotpSecret, totpEnrolment, type TotpEnrolment, totpStepOf } from './totp';

/** 423 ACCOUNT_LOCKED, and the seconds left (the controller sends them as Retry-After). */
export class AccountLockedError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(ErrorCode.AccountLocked);
  }
}

/** A sign-in (or, without the email, the step-up's proof): the password and, once TOTP is on, a code. */
export interface SignInCommand {
  email: string;
  password: string;
  totp?: string;
}

/**
 * Sign-in, sessions, set-password links and TOTP for both audiences (decision 0023). Every
 * wrong answer looks the same (401 SIGN_IN_FAILED) and costs the same argon2 work.
 */
@Injectable()
export class DashboardAuthService {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly sessions: DashboardSessionRepository,
    private readonly links: DashboardPasswordLinkRepository,
    private readonly authenticator: SessionAuthenticator,
    @Inject(DASHBOARD_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A new session for the user of these credentials, or the refusal. `onRefused` hears of a refusal
   * of a known user (not an unknown email, not the TOTP_REQUIRED step of a two-factor sign-in, not
   * an attempt while the user is locked), before it is thrown: the merchant's activity log lists it.
   */
  async signIn(
    audience: Audience,
    input: SignInCommand,
    onRefused?: (user: DashboardUser, refusal: ApiError) => Promise<void>,
  ): Promise<{ token: string; session: DashboardSession }> {
    const now = this.clock();
    const known = await this.users.findByEmail(input.email);
    let user: DashboardUser;
    try {
      user = await this.checkCredentials(audience, known, input, now);
      // The merchant's users are told why, once they have proved who they are; no session is made.
      if (!user.merchantActive) throw new ApiError(ErrorCode.MerchantNotActive);
    } catch (err) {
      // Not while the user was already locked: those attempts cost no argon2 work, and anyone who
      // knows the email could fill the merchant's log with them. At most 5 failures a lockout are listed.
      const alreadyLocked = Boolean(known?.lockedUntil && known.lockedUntil > now);
      if (known && onRefused && !alreadyLocked && err instanceof ApiError && err.code !== ErrorCode.TotpRequired)
        await onRefused(known, err);
      throw err;
    }
    await this.users.resetFailures(user.id);
    const { token } = await this.sessions.create(user.id, now);
    return { token, session: await this.authenticator.authenticate(audience, token) };
  }

  /**
   * Step-up: the signed-in user proves its password (and TOTP code, when on) again, and the
   * session counts as freshly authenticated (the actions marked @RequiresRecentAuth() want that
   * within REAUTH_WINDOW_MS). The same checks as sign-in, so the same answers and the same lockout.
   */
  async confirm(
    audience: Audience,
    principal: DashboardPrincipal,
    sessionToken: string,
    input: Omit<SignInCommand, 'email'>,
  ): Promise<DashboardSession> {
    const now = this.clock();
    const user = await this.checkCredentials(audience, await this.users.findById(principal.userId), input, now);
    await this.users.resetFailures(user.id);
    await this.sessions.markAuthenticated(sessionToken, now);
    return this.authenticator.authenticate(audience, sessionToken);
  }

  /**
   * Sign-in's and confirm's check of a password (and TOTP code): the user, or the refusal. A wrong
   * password or code counts towards the lockout; a locked user is refused even with the right ones.
   */
  private async checkCredentials(
    audience: Audience,
    user: DashboardUser | undefined,
    input: Omit<SignInCommand, 'email'>,
    now: Date,
  ): Promise<DashboardUser> {
    if (user?.lockedUntil && user.lockedUntil > now) throw new AccountLockedError(secondsUntil(user.lockedUntil, now));
    // An unknown email, or a user who never set a password, is verified against a dummy hash: same work, same answer.
    const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
    if (!user) throw new ApiError(ErrorCode.SignInFailed);
    if (!passwordOk) return this.fail(user.id, now);
    // A right password of a disabled user, or of the other audience's user, is still a wrong sign-in here (not counted: nothing was guessed).
    if (user.disabledAt !== null || user.role !== audience.role) throw new ApiError(ErrorCode.SignInFailed);
    if (user.totpEnabledAt !== null && user.totpSecret !== null) {
      if (input.totp === undefined || input.totp === '') throw new ApiError(ErrorCode.TotpRequired);
      // A code is used once: a replayed one (or the loser of two sign-ins sent with it at once) is a wrong code.
      const step = totpStepOf(user.totpSecret, input.totp, now);
      if (step === null || !(await this.users.useTotpStep(user.id, user.totpSecret, step)))
        return this.fail(user.id, now);
    }
    return user;
  }

  async signOut(token: string | undefined): Promise<void> {
    if (token) await this.sessions.revoke(token, this.clock());
  }

  /** Sets the password from a one-time link (the link of a user of this audience); 400 SETUP_LINK_INVALID otherwise. */
  async setPassword(audience: Audience, linkToken: string, password: string): Promise<void> {
    const problem = passwordProblem(password);
    if (problem)
      throw new ApiError(ErrorCode.ValidationError, `password: ${problem}`, [{ field: 'password', message: problem }]);
    const hash = await hashPassword(password);
    const userId = await this.links.consume(linkToken, audience.role, hash, this.clock());
    if (userId === undefined) throw new ApiError(ErrorCode.SetupLinkInvalid);
  }

  /** A new secret, not yet in force (totp/enable with a code turns it on); 409 while TOTP is on. */
  async totpSetup(principal: DashboardPrincipal): Promise<TotpEnrolment> {
    const secret = newTotpSecret();
    if (!(await this.users.setPendingTotpSecret(principal.userId, secret)))
      throw new ApiError(ErrorCode.Conflict, 'Two-factor sign-in is already on; turn it off first');
    return totpEnrolment(secret, principal.email);
  }

  /** Turns TOTP on with a code of the secret from totp/setup (a wrong code is 400 VALIDATION_ERROR); the user's other sessions end. */
  async totpEnable(principal: DashboardPrincipal, code: string, sessionToken: string): Promise<void> {
    const user = await this.users.findById(principal.userId);
    if (!user?.totpSecret || user.totpEnabledAt !== null)
      throw new ApiError(
        ErrorCode.Conflict,
        user?.totpEnabledAt ? 'Two-factor sign-in is already on' : 'Start with totp/setup',
      );
    const now = this.clock();
    const step = totpStepOf(user.totpSecret, code, now);
    if (step === null) throw wrongCode();
    if (!(await this.users.enableTotp(user.id, user.totpSecret, now, step))) {
      // Either the code was used already, or TOTP changed meanwhile: say which.
      const again = await this.users.findById(user.id);
      if (again?.totpSecret === user.totpSecret && again.totpEnabledAt === null) throw wrongCode();
      throw new ApiError(ErrorCode.Conflict, 'Two-factor sign-in changed meanwhile; start again');
    }
    await this.endOtherSessions(user.id, sessionToken, now);
  }

  /**
   * Turns TOTP off with a current, unused code. A wrong code counts as a failed sign-in, and while
   * the user is locked this answers 423 too: whoever holds a stolen session must not be able to
   * guess codes until the second factor is gone (5 guesses per lockout instead of the write rate limit's).
   */
  async totpDisable(principal: DashboardPrincipal, code: string, sessionToken: string): Promise<void> {
    const now = this.clock();
    const user = await this.users.findById(principal.userId);
    if (!user?.totpSecret || user.totpEnabledAt === null)
      throw new ApiError(ErrorCode.Conflict, 'Two-factor sign-in is not on');
    if (user.lockedUntil && user.lockedUntil > now) throw new AccountLockedError(secondsUntil(user.lockedUntil, now));
    const step = totpStepOf(user.totpSecret, code, now);
    // A code already used (at sign-in, say) does not turn TOTP off: it may have been seen.
    if (step === null || !(await this.users.disableTotp(user.id, user.totpSecret, step))) {
      const { lockedUntil } = await this.users.recordFailure(user.id, now);
      if (lockedUntil) throw new AccountLockedError(secondsUntil(lockedUntil, now));
      throw wrongCode();
    }
    await this.users.resetFailures(user.id);
    await this.endOtherSessions(user.id, sessionToken, now);
  }

  /**
   * A change of the second factor signs the user out everywhere else: a session someone stole
   * before TOTP was turned on must not outlive it, and turning it off is done by one session only.
   */
  private async endOtherSessions(userId: number, sessionToken: string, now: Date): Promise<void> {
    await this.sessions.revokeOthersOf(userId, sessionToken, now);
  }

  /** A wrong password or code: counted; the failure that reaches the limit answers 423 at once. */
  private async fail(userId: number, now: Date): Promise<never> {
    const { lockedUntil } = await this.users.recordFailure(userId, now);
    if (lockedUntil) throw new AccountLockedError(secondsUntil(lockedUntil, now));
    throw new ApiError(ErrorCode.SignInFailed);
  }
}

function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

function wrongCode(): ApiError {
  return new ApiError(ErrorCode.ValidationError, 'code: the code is wrong or has expired', [
    { field: 'code', message: 'the code is wrong or has expired' },
  ]);
}
