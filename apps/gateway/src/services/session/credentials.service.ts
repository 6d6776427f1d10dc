import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import {
  DashboardPasswordLinkRepository,
  DashboardSessionRepository,
  DashboardUserRepository,
  passwordProblem,
} from '@pay/persistence';
import { ApiError } from '@pay/platform';
import type { DashboardPrincipal } from '../../kernel/auth/session/dashboard-principal';
import type { Clock } from '../../kernel/auth/session/session-authenticator';
import type { Audience } from '../../kernel/auth/session/session-cookies';
import { DASHBOARD_CLOCK } from '../../gateway.tokens';
import { PasswordHasher } from './password-hasher';
import { retryAfterSecondsOf } from './retry-later.error';
import { AccountLockedError } from './sign-in.service';
import { SignInThrottle } from './sign-in-throttle';
import { newTotpSecret, totpEnrolment, type TotpEnrolment, totpStepOf } from './totp';

/**
 * A user's credentials besides signing in (decision 0023): the password set from a one-time link,
 * and the second factor (TOTP) turned on and off.
 */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly users: DashboardUserRepository,
    private readonly sessions: DashboardSessionRepository,
    private readonly links: DashboardPasswordLinkRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: SignInThrottle,
    @Inject(DASHBOARD_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Sets the password from a one-time link (the link of a user of this audience); 400
   * SETUP_LINK_INVALID otherwise. Anonymous, like sign-in: it spends the client address's sign-in
   * budget, and a link that cannot be used costs no hashing.
   */
  async setPassword(audience: Audience, linkToken: string, password: string, address: string): Promise<void> {
    await this.throttle.admitAddress(address);
    const problem = passwordProblem(password);
    if (problem)
      throw new ApiError(ErrorCode.ValidationError, `password: ${problem}`, [{ field: 'password', message: problem }]);
    this.hasher.checkRoom();
    if (!(await this.links.isUsable(linkToken, audience.role, this.clock())))
      throw new ApiError(ErrorCode.SetupLinkInvalid);
    const hash = await this.hasher.hash(password);
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
   * Turns TOTP off with a current, unused code. A wrong code counts as a failed confirmation, and
   * while the user is locked this answers 423 too: whoever holds a stolen session must not be able
   * to guess codes until the second factor is gone (5 guesses per lockout instead of the write rate limit's).
   */
  async totpDisable(principal: DashboardPrincipal, code: string, sessionToken: string): Promise<void> {
    const now = this.clock();
    const user = await this.users.findById(principal.userId);
    if (!user?.totpSecret || user.totpEnabledAt === null)
      throw new ApiError(ErrorCode.Conflict, 'Two-factor sign-in is not on');
    if (user.lockedUntil && user.lockedUntil > now) throw lockedUntil(user.lockedUntil, now);
    const step = totpStepOf(user.totpSecret, code, now);
    // A code already used (at sign-in, say) does not turn TOTP off: it may have been seen.
    if (step === null || !(await this.users.disableTotp(user.id, user.totpSecret, step))) {
      const failure = await this.users.recordFailure(user.id, now);
      if (failure.lockedUntil) throw lockedUntil(failure.lockedUntil, now);
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
}

function lockedUntil(until: Date, now: Date): AccountLockedError {
  return new AccountLockedError(retryAfterSecondsOf(until.getTime() - now.getTime()));
}

function wrongCode(): ApiError {
  return new ApiError(ErrorCode.ValidationError, 'code: the code is wrong or has expired', [
    { field: 'code', message: 'the code is wrong or has expired' },
  ]);
}
