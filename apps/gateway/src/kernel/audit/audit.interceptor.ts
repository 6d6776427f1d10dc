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
import { type AuditAs, changesBetween, merchantAuditState, OPS_API_ACTOR } from '@pay/backoffice';
import { AuditLogRepository, MerchantRepository, type NewAuditEntry, type PrismaClient } from '@pay/persistence';
import { requestLogId } from '@pay/platform';
import type { FastifyRequest } from 'fastify';
import { concatMap, from, type Observable } from 'rxjs';
import { PRISMA } from '../../gateway.tokens';
import { type DashboardPrincipal, signedInUserOf } from '../auth/session/dashboard-principal';

/** What an audit row's target is made from: the path parameters, the body, the answer's data and the signed-in user. */
export interface AuditSubject {
  params: Record<string, string>;
  body: Record<string, unknown>;
  data: Record<string, unknown>;
  /** The signed-in user; absent for the ops API (the admin token) */
  principal?: DashboardPrincipal;
}

interface AuditSpec {
  action: string;
  target: (subject: AuditSubject) => string;
  /** Record only a merchant user's request (routes both audiences share, whose operator side is not audited) */
  merchantUsersOnly: boolean;
  /** The route changes the merchant of its `:merchantId`: the row's details carry `changes`, old and new of every field that moved */
  merchantChanges: boolean;
  /** The row's details instead of the body (a body too big to keep whole: an uploaded file) */
  details?: (subject: AuditSubject) => Record<string, unknown>;
}

const AUDIT = Symbol('dashboardAudit');

/** Input fields never written to the audit log, whatever the endpoint. */
const SECRET_FIELD = /password|secret|token|totp|code$/i;

export function withoutSecrets(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !SECRET_FIELD.test(name)));
}

/**
 * The audit entry of a dashboard, console or ops API request: its user (and that user's merchant,
 * for a merchant user: the row then belongs to the merchant's activity log, not the console's
 * audit log) or, let in by the admin token, the actor `ops-api`; its logId and its body without
 * secrets.
 */
export function auditEntry(
  req: FastifyRequest,
  action: string,
  target: string,
  details: Record<string, unknown> = withoutSecrets(bodyOf(req)),
): NewAuditEntry {
  const principal = signedInUserOf(req);
  // Past the guard without a dashboard user: the admin token let it in.
  if (!principal)
    return {
      operatorUserId: null,
      actor: OPS_API_ACTOR,
      merchantId: null,
      action,
      target,
      details,
      logId: requestLogId(req),
    };
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
 * ops API) is written with the actor `ops-api`. A route that changes a merchant's settings
 * (`merchantChanges`) also writes what changed: the merchant is read before and after the
 * handler, and `details.changes` holds old and new of every field that moved. A refused request
 * (an exception: validation, 404, conflict; or a guard's 401/403, which stops it before this
 * runs) writes none. The row follows the change right after it: these changes are MerchantAdmin's
 * (Prisma), the settlement planner's or the services', outside this pool's transactions. Changes
 * that are one transaction on the pool (dead-letter replay, webhook resend) write their row in it
 * instead, through AuditLogRepository.withChange and auditEntry.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(AuditLogRepository) private readonly audit: AuditLogRepository,
    @Inject(PRISMA) prisma: PrismaClient,
  ) {
    this.merchants = new MerchantRepository(prisma);
  }

  private readonly merchants: MerchantRepository;

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT, context.getHandler());
    if (!spec) return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = signedInUserOf(req);
    if (spec.merchantUsersOnly && (principal?.merchantId ?? null) === null) return next.handle();
    const params = (req.params ?? {}) as Record<string, string>;
    const merchantId = spec.merchantChanges ? Number(params.merchantId) : NaN;
    return from(this.merchantState(merchantId)).pipe(
      concatMap((before) =>
        next.handle().pipe(
          concatMap((answer: unknown) =>
            from(
              (async () => {
                const data =
                  isRecord(answer) && isRecord((answer as { data?: unknown }).data)
                    ? (answer as { data: Record<string, unknown> }).data
                    : {};
                const subject = { params, body: bodyOf(req), data, principal };
                const target = spec.target(subject);
                const after = before && (await this.merchantState(merchantId));
                const details = withoutSecrets(spec.details ? spec.details(subject) : bodyOf(req));
                if (before && after) details.changes = changesBetween(before, after);
                await this.audit.record(auditEntry(req, spec.action, target, details));
                return answer;
              })(),
            ),
          ),
        ),
      ),
    );
  }

  /** The merchant's settings as the audit log compares them; null when there is none to read (the handler answers 404). */
  private async merchantState(merchantId: number): Promise<Record<string, unknown> | null> {
    if (!Number.isSafeInteger(merchantId) || merchantId <= 0) return null;
    const m = await this.merchants.find(merchantId).catch(() => null);
    return m && merchantAuditState(m);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Marks a dashboard, console or ops API handler that changes something: its success writes one
 * audit row, an operator's or the ops API's (the console's audit log) or a merchant user's (its
 * merchant's activity log). `merchantUsersOnly`: on a route both audiences share, an operator's
 * request writes nothing. `merchantChanges`: the row also says what changed (old and new).
 * `details`: what the row keeps instead of the body (an uploaded file: its size and digest).
 */
export const Audited = (
  action: string,
  target: (subject: AuditSubject) => string,
  options: {
    merchantUsersOnly?: boolean;
    merchantChanges?: boolean;
    details?: (subject: AuditSubject) => Record<string, unknown>;
  } = {},
) =>
  applyDecorators(
    SetMetadata(AUDIT, {
      action,
      target,
      merchantUsersOnly: options.merchantUsersOnly ?? false,
      merchantChanges: options.merchantChanges ?? false,
      details: options.details,
    } satisfies AuditSpec),
    UseInterceptors(AuditInterceptor),
  );
