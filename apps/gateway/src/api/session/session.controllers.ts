import {
  Body,
  type CanActivate,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
  type Type,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import type { SessionView, TotpSetupView, TotpStateView } from '@pay/contracts/dashboard';
import { AuditLogRepository, type DashboardSession, type DashboardUser } from '@pay/persistence';
import { ApiError, type Logger, Reply, requestLogId } from '@pay/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, LOGGER } from '../../gateway.tokens';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { CredentialsService } from '../../services/session/credentials.service';
import { RetryLaterError } from '../../services/session/retry-later.error';
import { SignInService } from '../../services/session/sign-in.service';
import { SessionAuthenticator } from '../../kernel/auth/session/session-authenticator';
import { type DashboardPrincipal, Principal } from '../../kernel/auth/session/dashboard-principal';
import {
  type Audience,
  clearSessionCookie,
  isForeignOrigin,
  MERCHANT_AUDIENCE,
  OPERATOR_AUDIENCE,
  sessionCookieOf,
  setSessionCookie,
} from '../../kernel/auth/session/session-cookies';
import { MerchantSessionGuard, OperatorSessionGuard } from '../../kernel/auth/session/session.guards';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { RoleReach } from '../../kernel/auth/session/role-reach';
import { type MerchantRole, PERMISSIONS, roleAllows } from '@pay/domain';
import { ConfirmPasswordDto, SetPasswordDto, SignInDto, TotpCodeDto } from './session.dto';
import { Audited, type AuditSubject } from '../../kernel/audit/audit.interceptor';

/**
 * The session endpoints of one audience: sign in, who am I, sign out, set a password from a
 * link, TOTP. Built twice (merchant dashboard, operator console). Sign-in and set-password spend
 * no merchant budget (no merchant is known yet) but the client address's sign-in budget, and
 * sign-in the failure backoff of the account (SignInThrottle); who-am-I and sign-out spend
 * nothing (the web app must be able to tell signed-in from signed-out while its merchant's
 * integration is at its limit). A merchant user's TOTP changes spend the merchant's write budget;
 * operators have none.
 */
function sessionEndpoints(audience: Audience, SessionGuard: Type<CanActivate>) {
  // Every merchant role has its own session, password and second factor.
  @RoleReach('any')
  class SessionEndpoints {
    constructor(
      readonly auth: SignInService,
      readonly credentials: CredentialsService,
      readonly authenticator: SessionAuthenticator,
      @Inject(GATEWAY_CONFIG) readonly config: GatewayConfig,
      @Inject(AuditLogRepository) readonly audit: AuditLogRepository,
      @Inject(LOGGER) readonly logger: Logger,
    ) {}

    @Post('session')
    @HttpCode(200)
    async signIn(
      @Req() req: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
      @Body() dto: SignInDto,
    ): Promise<Reply<SessionView>> {
      // No session yet, so no CSRF token: a foreign Origin is what gives a cross-site sign-in away.
      if (isForeignOrigin(req)) throw new ApiError(ErrorCode.CsrfTokenInvalid);
      return withRetryAfter(reply, async () => {
        const signIn = { email: dto.email, password: dto.password, totp: dto.totp, address: req.ip };
        // A refusal's row is written once the answer has left: a user's refusal must not take longer than an unknown email's.
        const { token, session } = await this.auth.signIn(audience, signIn, (user, refusal) =>
          this.afterReply(reply, () => this.recordSignInRefused(req, user, refusal)),
        );
        if (session.merchantId !== null) {
          await this.audit.record({
            operatorUserId: session.userId,
            merchantId: session.merchantId,
            action: 'session.sign-in',
            target: `user:${session.userId}`,
            details: {},
            logId: requestLogId(req),
          });
        }
        // A new sign-in replaces the browser's session: the one its cookie named (if any) ends, so a
        // cookie value someone else saw or planted before the sign-in is worth nothing after it.
        await this.auth.signOut(sessionCookieOf(req, audience));
        setSessionCookie(reply, audience, token, { secure: this.config.dashboard.secureCookies });
        return new Reply('Signed in', this.view(session));
      });
    }

    @Get('session')
    @UseGuards(SessionGuard)
    async current(@Req() req: FastifyRequest): Promise<Reply<SessionView>> {
      return new Reply(
        'Signed in',
        this.view(await this.authenticator.authenticate(audience, sessionCookieOf(req, audience))),
      );
    }

    /**
     * The web app's question on every page load: the session (signed in) or null (not), always 200.
     * `GET session` answers 401 without one, and a browser logs every 401 as an error on the page.
     */
    @Get('session/probe')
    async probe(@Req() req: FastifyRequest): Promise<Reply<SessionView | null>> {
      try {
        return new Reply(
          'Signed in',
          this.view(await this.authenticator.authenticate(audience, sessionCookieOf(req, audience))),
        );
      } catch (e) {
        if (e instanceof ApiError && e.code === ErrorCode.SessionRequired) return new Reply('Not signed in', null);
        throw e;
      }
    }

    @Delete('session')
    @UseGuards(SessionGuard)
    async signOut(
      @Req() req: FastifyRequest,
      @Principal() principal: DashboardPrincipal,
      @Res({ passthrough: true }) reply: FastifyReply,
    ) {
      await this.auth.signOut(sessionCookieOf(req, audience));
      if (principal.merchantId !== null) {
        await this.audit.record({
          operatorUserId: principal.userId,
          merchantId: principal.merchantId,
          action: 'session.sign-out',
          target: `user:${principal.userId}`,
          details: {},
          logId: requestLogId(req),
        });
      }
      clearSessionCookie(reply, audience, { secure: this.config.dashboard.secureCookies });
      return new Reply('Signed out', null);
    }

    /**
     * Step-up: the password (and TOTP code, when on) again, and sensitive actions work for the next
     * 10 minutes. The user's lockout is the defence (5 wrong answers, then 423): the caller holds a session.
     */
    @Post('session/confirm')
    @HttpCode(200)
    @UseGuards(SessionGuard)
    async confirm(
      @Req() req: FastifyRequest,
      @Principal() principal: DashboardPrincipal,
      @Res({ passthrough: true }) reply: FastifyReply,
      @Body() dto: ConfirmPasswordDto,
    ) {
      const proof = { password: dto.password, totp: dto.totp };
      const session = await withRetryAfter(reply, () =>
        this.auth.confirm(audience, principal, sessionCookieOf(req, audience) as string, proof),
      );
      return new Reply('Password confirmed', this.view(session));
    }

    /** From a one-time link: no session. */
    @Post('password')
    @HttpCode(200)
    async setPassword(
      @Req() req: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
      @Body() dto: SetPasswordDto,
    ) {
      if (isForeignOrigin(req)) throw new ApiError(ErrorCode.CsrfTokenInvalid);
      await withRetryAfter(reply, () => this.credentials.setPassword(audience, dto.token, dto.password, req.ip));
      return new Reply('Password set; sign in with it', null);
    }

    @Post('totp/setup')
    @HttpCode(200)
    @UseGuards(SessionGuard)
    @RateLimit('write')
    @RequiresRecentAuth()
    @Audited('totp.setup', userTarget, { merchantUsersOnly: true })
    async totpSetup(@Principal() principal: DashboardPrincipal): Promise<Reply<TotpSetupView>> {
      return new Reply(
        'Scan the code, then confirm with a code from the app',
        await this.credentials.totpSetup(principal),
      );
    }

    @Post('totp/enable')
    @HttpCode(200)
    @UseGuards(SessionGuard)
    @RateLimit('write')
    @RequiresRecentAuth()
    @Audited('totp.enable', userTarget, { merchantUsersOnly: true })
    async totpEnable(
      @Req() req: FastifyRequest,
      @Principal() principal: DashboardPrincipal,
      @Body() dto: TotpCodeDto,
    ): Promise<Reply<TotpStateView>> {
      await this.credentials.totpEnable(principal, dto.code, sessionCookieOf(req, audience) as string);
      return new Reply('Two-factor sign-in is on', { totpEnabled: true });
    }

    @Post('totp/disable')
    @HttpCode(200)
    @UseGuards(SessionGuard)
    @RateLimit('write')
    @RequiresRecentAuth()
    @Audited('totp.disable', userTarget, { merchantUsersOnly: true })
    async totpDisable(
      @Req() req: FastifyRequest,
      @Principal() principal: DashboardPrincipal,
      @Res({ passthrough: true }) reply: FastifyReply,
      @Body() dto: TotpCodeDto,
    ): Promise<Reply<TotpStateView>> {
      await withRetryAfter(reply, () =>
        this.credentials.totpDisable(principal, dto.code, sessionCookieOf(req, audience) as string),
      );
      return new Reply('Two-factor sign-in is off', { totpEnabled: false });
    }

    /**
     * A merchant user's refused sign-in (wrong password or code, locked, disabled, merchant
     * inactive) goes to its merchant's activity log, with the refusal's code and nothing typed.
     * Operators' sign-ins are not the console's audit log's (it lists changes).
     */
    async recordSignInRefused(req: FastifyRequest, user: DashboardUser, refusal: ApiError): Promise<void> {
      if (audience.role !== 'merchant' || user.role !== 'merchant' || user.merchantId === null) return;
      await this.audit.record({
        operatorUserId: user.id,
        merchantId: user.merchantId,
        action: 'session.sign-in-failed',
        target: `user:${user.id}`,
        details: { reason: refusal.code },
        logId: requestLogId(req),
      });
    }

    /** Runs `work` once the answer has been sent (or the connection lost); a failure is logged, the answer stands. */
    afterReply(reply: FastifyReply, work: () => Promise<void>): void {
      reply.raw.once('close', () => {
        work().catch((err: unknown) => this.logger.warn({ err }, 'a refused sign-in could not be recorded'));
      });
    }

    view(s: DashboardSession): SessionView {
      return {
        user: {
          id: s.userId,
          email: s.email,
          role: s.role,
          totpEnabled: s.totpEnabled,
          merchantRole: s.merchantRole,
          permissions:
            s.merchantRole === null ? [] : PERMISSIONS.filter((p) => roleAllows(s.merchantRole as MerchantRole, p)),
        },
        merchant: s.merchantId !== null ? { id: s.merchantId, name: s.merchantName ?? '' } : null,
        csrfToken: s.csrfToken,
        sandbox: this.config.payins.sandbox,
      };
    }
  }
  return SessionEndpoints;
}

/** Runs `work`; a refusal that says when to come back (429, 423) answers with Retry-After. */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RetryLaterError) void reply.header('Retry-After', String(err.retryAfterSeconds));
    throw err;
  }
}

/** The TOTP routes' audit target: the user whose second factor changed. */
function userTarget({ principal }: AuditSubject): string {
  // A session route: its guard let a signed-in user in.
  return `user:${principal?.userId}`;
}

/** /dashboard/api/session, password, totp/* (public port; merchant users). */
@ApiExcludeController()
@Controller('dashboard/api')
export class DashboardSessionController extends sessionEndpoints(MERCHANT_AUDIENCE, MerchantSessionGuard) {}

/** /console/api/session, password, totp/* (internal port; operators). */
@ApiExcludeController()
@Controller('console/api')
export class ConsoleSessionController extends sessionEndpoints(OPERATOR_AUDIENCE, OperatorSessionGuard) {}
