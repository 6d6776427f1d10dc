import { applyDecorators, type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { OperatorAuditRepository } from '@pay/persistence';
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

/**
 * Writes one operator_audit_log row once the handler has succeeded (operator, action, target,
 * the body without secrets, the request's logId). A refused request (an exception: validation,
 * 404, conflict) writes none. The row follows the change right after it rather than in its
 * transaction: the changes are MerchantAdmin's (Prisma) and the repositories' own transactions.
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
            const body = isRecord(req.body) ? req.body : {};
            const data = isRecord(answer) && isRecord((answer as { data?: unknown }).data) ? (answer as { data: Record<string, unknown> }).data : {};
            const target = spec.target({ params: (req.params ?? {}) as Record<string, string>, body, data });
            await this.audit.record({ operatorUserId: principalOf(req).userId, action: spec.action, target, details: withoutSecrets(body), logId: requestLogId(req) });
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
