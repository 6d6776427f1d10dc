import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Ops endpoints take `Authorization: Bearer <ADMIN_TOKEN>`; without ADMIN_TOKEN they do not exist. */
export const ADMIN_SETTINGS = Symbol('ADMIN_SETTINGS');
export interface AdminSettings {
  adminToken: string | undefined;
}

@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(ADMIN_SETTINGS) private readonly settings: AdminSettings) {}

  canActivate(context: ExecutionContext): boolean {
    const { adminToken } = this.settings;
    if (!adminToken) throw new NotFoundException();
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token || !safeEqual(token, adminToken)) throw new UnauthorizedException('admin token required');
    return true;
  }
}

/** Basic auth (user `admin`, password ADMIN_TOKEN) for the Bull Board pages, which browsers open directly. */
export function adminBasicAuth(adminToken: string) {
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const header = req.headers.authorization ?? '';
    const [user, ...rest] = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':') : [];
    if (user === 'admin' && safeEqual(rest.join(':'), adminToken)) return done();
    void reply.header('WWW-Authenticate', 'Basic realm="queues"').status(401).send({ status: false, message: 'admin credentials required', code: 'TOKEN_NOT_VALID' });
  };
}
