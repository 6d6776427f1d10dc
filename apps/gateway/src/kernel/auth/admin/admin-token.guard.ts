import { timingSafeEqual } from 'node:crypto';
import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { requestLogId } from '@pay/platform';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ADMIN_SETTINGS } from '../../../gateway.tokens';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether `given` is one of the admin tokens (ADMIN_TOKEN, then those being rotated out), compared in constant time. */
function isAdminToken(given: string, tokens: string[]): boolean {
  return given !== '' && tokens.some((token) => safeEqual(given, token));
}

/** ADMIN_TOKEN and, during a rotation, the tokens being replaced (ADMIN_SETTINGS). */
export interface AdminSettings {
  adminToken: string | undefined;
  previousAdminTokens: string[];
}

@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(ADMIN_SETTINGS) private readonly settings: AdminSettings) {}

  canActivate(context: ExecutionContext): boolean {
    const { adminToken, previousAdminTokens } = this.settings;
    if (!adminToken) throw new NotFoundException();
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!isAdminToken(token, [adminToken, ...previousAdminTokens]))
      throw new UnauthorizedException('admin token required');
    return true;
  }
}

/** Basic auth (user `admin`, password an admin token) for the Bull Board pages, which browsers open directly. */
export function adminBasicAuth(adminTokens: string[]) {
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const header = req.headers.authorization ?? '';
    const [user, ...rest] = header.startsWith('Basic ')
      ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')
      : [];
    if (user === 'admin' && isAdminToken(rest.join(':'), adminTokens)) return done();
    void reply
      .header('WWW-Authenticate', 'Basic realm="queues"')
      .status(401)
      .send({
        logId: requestLogId(req),
        status: false,
        message: 'admin credentials required',
        code: 'TOKEN_NOT_VALID',
      });
  };
}
