import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { OperatorSessionGuard } from './session/session.guards';

const CONSOLE_API = '/console/api/';

/**
 * The guard of the operators' controller set, which serves the ops API (/ops) and, for the
 * routes where the console does exactly the same, the console (/console/api): one handler, two
 * paths. Each path keeps its own credential: a /console/api route wants an operator's session
 * (OperatorSessionGuard: cookie, CSRF token, @RequiresRecentAuth), any other the admin token
 * (AdminTokenGuard: 404 without ADMIN_TOKEN, 401 without the token).
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(
    private readonly adminToken: AdminTokenGuard,
    private readonly session: OperatorSessionGuard,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const route = context.switchToHttp().getRequest<FastifyRequest>().routeOptions.url ?? '';
    return route.startsWith(CONSOLE_API) ? this.session.canActivate(context) : this.adminToken.canActivate(context);
  }
}
