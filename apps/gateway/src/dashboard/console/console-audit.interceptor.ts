import { applyDecorators, type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type NewOperatorAuditEntry, OperatorAuditRepository } from '@pay/persistence';
import { requestLogId } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { concatMap, from, type Observable } from 'rxjs';
import { principalOf } from '../auth/dashboard-principal';

/** What an audit row's target is made from: the path parameters, the body and the answer's data. */
export interface AuditSubject {
  params: Record<string, string>;
  body: Record<string, unknown>;
  data: Record<string, unknown>;
}

interface AuditSpec {
  action: string;
  target: (subject: AuditSubject) => string;
}

const AUDIT = Symbol('consoleAudit');

/** Input fields never written to the audit log, whatever the endpoint. */
const SECRET_FIELD = /password|secret|token|totp|code$/i;

export function withoutSecrets(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !SECRET_FIELD.test(name)));
}

/** The audit entry of a console request: its operator, its logId and its body without secrets. */
export function auditEntry(req: FastifyRequest, action: string, target: string): NewOperatorAuditEntry {
  return { operatorUserId: principalOf(req).userId, action, target, details: withoutSecrets(bodyOf(req)), logId: requestLogId(req) };
}

function bodyOf(req: FastifyRequest): Record<string, unknown> {
  return isRecord(req.body) ? req.body : {};
}

/**
 * Writes one operator_audit_log row once the handler has succeeded (operator, action, target,
 * the body without secrets, the request's logId). A refused request (an exception: validation,
 * 404, conflict) writes none. The row follows the change right after it: these changes are
 * MerchantAdmin's (Prisma) or the settlement planner's, outside this pool's transactions. Changes
 * that are one transaction on the pool (dead-letter replay, webhook resend) write their row in
 * it instead, through OperatorAuditRepository.withChange and auditEntry.
 */
@Injectable()
export class ConsoleAuditInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(OperatorAuditRepository) private readonly audit: OperatorAuditRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT, context.getHandler());
    if (!spec) return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      concatMap((answer: unknown) =>
        from(
          (async () => {
            const data = isRecord(answer) && isRecord((answer as { data?: unknown }).data) ? (answer as { data: Record<string, unknown> }).data : {};
            const target = spec.target({ params: (req.params ?? {}) as Record<string, string>, body: bodyOf(req), data });
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

/** Marks a console handler that changes something: its success writes one audit row. */
export const Audited = (action: string, target: (subject: AuditSubject) => string) =>
  applyDecorators(SetMetadata(AUDIT, { action, target } satisfies AuditSpec), UseInterceptors(ConsoleAuditInterceptor));
