import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardRole } from '@pay/persistence';

/** The two audiences of decision 0023: each has its cookie, scoped to its own path. */
export interface Audience {
  role: DashboardRole;
  cookie: string;
  path: string;
}

export const MERCHANT_AUDIENCE: Audience = { role: 'merchant', cookie: 'pay_dash_session', path: '/dashboard' };
export const OPERATOR_AUDIENCE: Audience = { role: 'operator', cookie: 'pay_console_session', path: '/console' };

/** Read by the controllers and guards (GATEWAY_CONFIG.DASHBOARD_COOKIE_SECURE). */
export interface CookieSettings {
  secure: boolean;
}

export function sessionCookieOf(req: FastifyRequest, audience: Audience): string | undefined {
  const value = req.cookies[audience.cookie];
  return value ? value : undefined;
}

/** HttpOnly, SameSite=Strict, Secure unless turned off; a session cookie (no Max-Age): the server's timeouts decide. */
export function setSessionCookie(
  reply: FastifyReply,
  audience: Audience,
  value: string,
  settings: CookieSettings,
): void {
  void reply.setCookie(audience.cookie, value, {
    path: audience.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: settings.secure,
  });
}

export function clearSessionCookie(reply: FastifyReply, audience: Audience, settings: CookieSettings): void {
  void reply.clearCookie(audience.cookie, {
    path: audience.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: settings.secure,
  });
}

/**
 * The request's own origin (scheme and Host, as Fastify reads them behind the trusted proxies).
 * An `Origin` header, when a browser sends one, must be exactly it.
 */
export function isForeignOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  return origin.toLowerCase() !== `${req.protocol}://${req.host}`.toLowerCase();
}
