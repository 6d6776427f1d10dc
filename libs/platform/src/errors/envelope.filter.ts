import { STATUS_CODES } from 'node:http';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import {
  BackofficeError,
  BackofficeErrorCode,
  ERROR_HTTP_STATUS,
  ERROR_MESSAGE,
  ErrorCode,
  type ErrorEnvelope,
} from '@pay/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError } from './api-error';
import { classifyFault, databaseInputRefusal } from '../faults/fault';
import { requestLogId } from '../http/log-id.hooks';
import { throttledWarn } from '../logging/throttled-warn';
import { fieldLine } from '../http/validation.pipe';

const HTTP_STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: ErrorCode.ValidationError,
  401: ErrorCode.TokenNotValid,
  404: ErrorCode.NotFound,
  405: ErrorCode.MethodNotAllowed,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.UnsupportedMediaType,
  503: ErrorCode.ServiceUnavailable,
};

/**
 * The back office's refusals (libs/backoffice: the ops API, the console) as the API answers them:
 * each code is one ErrorCode, and so one HTTP status (ERROR_HTTP_STATUS). A refusal that names a
 * field says so in the message and in `errors`, as validation does.
 */
const BACKOFFICE_ERROR_CODE: Record<BackofficeErrorCode, ErrorCode> = {
  [BackofficeErrorCode.MerchantNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.TokenNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.DashboardUserNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.DeadLetterNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.WebhookDeliveryNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.DisbursementNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.DisbursementNotReversible]: ErrorCode.DisbursementNotReversible,
  [BackofficeErrorCode.AdjustmentNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.OwnAdjustment]: ErrorCode.OwnAdjustment,
  [BackofficeErrorCode.AdjustmentNotRequested]: ErrorCode.AdjustmentNotRequested,
  [BackofficeErrorCode.InvalidInput]: ErrorCode.ValidationError,
  [BackofficeErrorCode.InvalidState]: ErrorCode.ValidationError,
  [BackofficeErrorCode.CallbackUrlRefused]: ErrorCode.NotifyUrlNotAllowed,
  [BackofficeErrorCode.Conflict]: ErrorCode.Conflict,
  [BackofficeErrorCode.ExportNotFound]: ErrorCode.NotFound,
  [BackofficeErrorCode.ReconNotFound]: ErrorCode.NotFound,
};

/** Seconds a client should wait before retrying when a dependency (database, Redis) is away: failovers take seconds, not milliseconds. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * Every failure, expected or not, leaves as `{ logId, status: false, message, code }`: an ApiError
 * with its code, a back-office refusal by BACKOFFICE_ERROR_CODE, a client error Fastify or a
 * plugin raised (a Range a static file cannot satisfy: 416) with its status. An error
 * classifyFault calls transient (PostgreSQL or Redis away, a pool or statement timeout) is an
 * outage, not a bug: 503 SERVICE_UNAVAILABLE with Retry-After. A database refusal no handler
 * mapped is still about the input: a taken unique key is 409 CONFLICT, text PostgreSQL cannot
 * store is 400 VALIDATION_ERROR (both logged as warnings: a handler should have named them).
 * Anything else unknown is a 500.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  /** During an outage every request fails the same way: one warn line per 10 s says so. */
  private readonly warnUnavailable: (err: unknown) => void;

  constructor(private readonly logger: Logger) {
    this.warnUnavailable = throttledWarn(logger, 'request answered 503: a dependency is unavailable');
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { status, body, unmapped } = this.toEnvelope(exception, requestLogId(req));
    const unavailable = body.code === ErrorCode.ServiceUnavailable;
    if (unavailable && !(exception instanceof HttpException)) this.warnUnavailable(exception);
    else if (unmapped)
      this.logger.warn(
        { err: exception, path: req.url, status },
        'request refused by the database without a handler mapping it',
      );
    else if (status >= 500) this.logger.error({ err: exception, path: req.url }, 'request failed');
    // A 429 leaves only the access log's line, one a second (registerRequestLogger), and http_rate_limited_total.
    else if (body.code !== ErrorCode.RateLimited)
      this.logger.info({ code: body.code, path: req.url, status }, 'request refused');
    // A 503 is always safe to retry; tell clients when.
    if (status === 503) void reply.header('Retry-After', String(unavailable ? DEPENDENCY_RETRY_AFTER_SECONDS : 1));
    void reply.status(status).send(body);
  }

  private toEnvelope(exception: unknown, logId: string): { status: number; body: ErrorEnvelope; unmapped?: true } {
    if (exception instanceof ApiError) {
      const body: ErrorEnvelope = { logId, status: false, message: exception.message, code: exception.code };
      if (exception.fieldErrors) body.errors = exception.fieldErrors;
      return { status: exception.httpStatus, body };
    }
    if (exception instanceof BackofficeError) {
      const code = BACKOFFICE_ERROR_CODE[exception.code];
      const { field, message } = exception;
      const body: ErrorEnvelope = { logId, status: false, message: field ? fieldLine(field, message) : message, code };
      if (field) body.errors = [{ field, message }];
      return { status: ERROR_HTTP_STATUS[code], body };
    }
    // Fastify's own failures (unknown route, body too large, not JSON, malformed JSON) arrive as HttpExceptions too.
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = HTTP_STATUS_TO_CODE[status] ?? (status >= 500 ? ErrorCode.InternalError : ErrorCode.ValidationError);
      return { status, body: { logId, status: false, message: httpMessage(exception, status), code } };
    }
    // A client error Fastify or a plugin raised outside Nest (@fastify/send's 412 and 416 for a static file).
    const clientStatus = pluginClientErrorStatus(exception);
    if (clientStatus !== undefined) {
      const code = HTTP_STATUS_TO_CODE[clientStatus] ?? ErrorCode.ValidationError;
      const message = clientStatus === 404 ? 'Route not found' : (STATUS_CODES[clientStatus] ?? 'Bad request');
      return { status: clientStatus, body: { logId, status: false, message, code } };
    }
    const refusal = databaseInputRefusal(exception);
    if (refusal === 'conflict') {
      return {
        status: 409,
        unmapped: true,
        body: {
          logId,
          status: false,
          message: ERROR_MESSAGE[ErrorCode.Conflict] ?? ErrorCode.Conflict,
          code: ErrorCode.Conflict,
        },
      };
    }
    if (refusal === 'invalid_text') {
      const message = 'Request contains text that cannot be stored (a NUL byte or an invalid character)';
      return { status: 400, unmapped: true, body: { logId, status: false, message, code: ErrorCode.ValidationError } };
    }
    if (classifyFault(exception) === 'transient') {
      const code = ErrorCode.ServiceUnavailable;
      return { status: 503, body: { logId, status: false, message: ERROR_MESSAGE[code] ?? code, code } };
    }
    return {
      status: 500,
      body: { logId, status: false, message: 'Internal server error', code: ErrorCode.InternalError },
    };
  }
}

/**
 * The status of a client error from Fastify itself (an FST_ERR_ code) or from a plugin that throws
 * http-errors (which mark theirs with `expose`): a `statusCode` from 400 to 499. An error of any
 * other origin carrying a 4xx (an upstream's answer) is not the caller's fault and stays a 500.
 */
function pluginClientErrorStatus(exception: unknown): number | undefined {
  if (!(exception instanceof Error)) return undefined;
  const { statusCode, expose, code } = exception as { statusCode?: unknown; expose?: unknown; code?: unknown };
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode > 499) return undefined;
  return typeof expose === 'boolean' || (typeof code === 'string' && code.startsWith('FST_')) ? statusCode : undefined;
}

function httpMessage(exception: HttpException, status: number): string {
  if (status === 404) return 'Route not found';
  if (status === 413) return 'Request body is too large';
  if (status === 415) return 'Request body must be JSON (Content-Type: application/json)';
  return bodyParserMessage(exception) ?? exception.message;
}

/** A malformed JSON body: Fastify's parser error, or a SyntaxError that Nest turns into a BadRequestException. */
function bodyParserMessage(exception: HttpException): string | undefined {
  const response = exception.getResponse();
  const message =
    typeof response === 'object' && response && 'message' in response
      ? (response as { message: unknown }).message
      : response;
  return typeof message === 'string' && /JSON/.test(message) ? 'Request body is not valid JSON' : undefined;
}
