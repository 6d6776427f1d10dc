import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuditAs } from '@pay/backoffice';
import { AuditLogRepository, type NewAuditEntry } from '@pay/persistence';
import { requestLogId } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { concatMap, from, type Observable } from 'rxjs';
import { type DashboardPrincipal, principalOf, signedInUserOf } from '../auth/session/dashboard-principal';

/** What an audit row's target is made from: the path parameters, the body, the answer's data and the signed-in user. */
export interface AuditSubject {
  params: Record<string, string>;
  body: Record<string, unknown>;
  data: Record<string, unknown>;
  principal: DashboardPrincipal;
}

interface AuditSpec {
  action: string;
  target: (subject: AuditSubject) => string;
  /** Record only a merchant user's request (routes both audiences share, whose operator side is not audited) */
  merchantUsersOnly: boolean;
}

const AUDIT = Symbol('dashboardAudit');

/** Input fields never written to the audit log, whatever the endpoint. */
const SECRET_FIELD = /password|secret|token|totp|code$/i;

export function withoutSecrets(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !SECRET_FIELD.test(name)));
}

/**
 * The audit entry of a dashboard or console request: its user (and that user's merchant, for a
 * merchant user: the row then belongs to the merchant's activity log, not the console's audit
 * log), its logId and its body without secrets.
 */
export function auditEntry(
  req: FastifyRequest,
  action: string,
  target: string,
  details: Record<string, unknown> = withoutSecrets(bodyOf(req)),
): NewAuditEntry {
  const principal = principalOf(req);
  return {
    operatorUserId: principal.userId,
    merchantId: principal.merchantId,
    action,
    target,
    details,
    logId: requestLogId(req),
  };
}

/** The audit entries of a change the back office writes in its own transaction (dead-letter replay, webhook resend). */
export function auditAs(req: FastifyRequest): AuditAs {
  return (action, target) => auditEntry(req, action, target);
}

function bodyOf(req: FastifyRequest): Record<string, unknown> {
  return isRecord(req.body) ? req.body : {};
}

/**
 * Writes one audit row once the handler has succeeded (user, merchant of a merchant user, action,
 * target, the body without secrets, the request's logId); a request the admin token let in (the
 * ops API, on a route it shares with the console) writes none. A refused request (an exception:
 * validation, 404, conflict; or a guard's 401/403, which stops it before this runs) writes none.
 * The row follows the change right after it: these changes are MerchantAdmin's (Prisma), the
 * settlement planner's or the services', outside this pool's transactions. Changes that are one
 * transaction on the pool (dead-letter replay, webhook resend) write their row in it instead,
 * through AuditLogRepository.withChange and auditEntry.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(AuditLogRepository) private readonly audit: AuditLogRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT, context.getHandler());
    if (!spec) return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    // The ops API's requests to the operators' controller set (admin token) keep no audit log.
    const principal = signedInUserOf(req);
    if (!principal || (spec.merchantUsersOnly && principal.merchantId === null)) return next.handle();
    return next.handle().pipe(
      concatMap((answer: unknown) =>
        from(
          (async () => {
            const data =
              isRecord(answer) && isRecord((answer as { data?: unknown }).data)
                ? (answer as { data: Record<string, unknown> }).data
                : {};
            const target = spec.target({
              params: (req.params ?? {}) as Record<string, string>,
              body: bodyOf(req),
              data,
              principal,
            });
            await this.audit.record(auditEntry(req, spec.action, target));
            return answer;
          })(),
        ),
      ),
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Marks a dashboard or console handler that changes something: its success writes one audit row,
 * an operator's (the console's audit log) or a merchant user's (its merchant's activity log).
 * `merchantUsersOnly`: on a route both audiences share, an operator's request writes nothing.
 */
export const Audited = (
  action: string,
  target: (subject: AuditSubject) => string,
  options: { merchantUsersOnly?: boolean } = {},
) =>
  applyDecorators(
    SetMetadata(AUDIT, { action, target, merchantUsersOnly: options.merchantUsersOnly ?? false } satisfies AuditSpec),
    UseInterceptors(AuditInterceptor),
  );
