import { Module } from '@nestjs/common';
import type { GatewayConfig } from '../../gateway.config';
import type { GatewayFace } from '../../kernel/face';
import { KernelModule } from '../../kernel/kernel.module';
import { ServicesModule } from '../../services/services.module';
import { registerHashingShed, registerUntrustedProxyWarning } from '../../services/session/sign-in.hooks';
import { PasswordHasher } from '../../services/session/password-hasher';
import { ConsoleSessionController, DashboardSessionController } from './session.controllers';

/**
 * Sign-in, sessions, set-password links and TOTP (decision 0023), once per audience: the merchant
 * dashboard's under /dashboard/api (public port) and the console's under /console/api (internal
 * port only).
 *
 * Request pipeline: Cache-Control: no-store (an onSend hook); while the password hashing pool is
 * full, sign-in and set-password are refused (429) when their headers are in (registerHashingShed);
 * the JSON body (64 KiB); sign-in and set-password need no session but refuse a foreign Origin
 * (403 CSRF_TOKEN_INVALID), spend the client address's sign-in budget, and sign-in waits out the
 * account's failure backoff (SignInThrottle, 429), all before any lookup or hashing; the other
 * routes take the audience's session guard (cookie, CSRF token); confirming the password counts
 * towards the user's lockout; TOTP changes want a recent password (@RequiresRecentAuth) and spend
 * a merchant user's write budget; a merchant user's sign-in, sign-out, refusals and TOTP changes
 * write its merchant's activity log; the envelopes.
 */
@Module({
  imports: [KernelModule, ServicesModule],
  controllers: [DashboardSessionController, ConsoleSessionController],
})
export class SessionModule {}

export const SESSION_FACE: GatewayFace<GatewayConfig> = {
  name: 'session',
  module: SessionModule,
  hooks: ({ app, fastify, config, logger }) => {
    registerHashingShed(fastify, app.get(PasswordHasher));
    if (config.http.trustedProxies.length === 0) registerUntrustedProxyWarning(fastify, logger);
  },
};
