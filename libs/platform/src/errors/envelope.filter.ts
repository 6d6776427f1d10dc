import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { ErrorCode, type ErrorEnvelope } from '@pay/contracts';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from './api-error';
import { requestLogId } from '../http/log-id.middleware';

const HTTP_STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: ErrorCode.ValidationError,
  401: ErrorCode.TokenNotValid,
  404: ErrorCode.NotFound,
  405: ErrorCode.MethodNotAllowed,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.UnsupportedMediaType,
  503: ErrorCode.ServiceUnavailable,
};

/** Every failure, expected or not, leaves as `{ logId, status: false, message, code }`. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { status, body } = this.toEnvelope(exception, requestLogId(req));
    if (status >= 500) this.logger.error({ err: exception, path: req.path }, 'request failed');
    else this.logger.info({ code: body.code, path: req.path, status }, 'request refused');
    // A 503 is always safe to retry; tell clients when.
    if (status === 503) res.setHeader('Retry-After', '1');
    res.status(status).json(body);
  }

  private toEnvelope(exception: unknown, logId: string): { status: number; body: ErrorEnvelope } {
    if (exception instanceof ApiError) {
      const body: ErrorEnvelope = { logId, status: false, message: exception.message, code: exception.code };
      if (exception.fieldErrors) body.errors = exception.fieldErrors;
      return { status: exception.httpStatus, body };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = HTTP_STATUS_TO_CODE[status] ?? (status >= 500 ? ErrorCode.InternalError : ErrorCode.ValidationError);
      const message = status === 404 ? 'Route not found' : bodyParserMessage(exception) ?? exception.message;
      return { status, body: { logId, status: false, message, code } };
    }
    // body-parser's errors (http-errors) are not HttpExceptions: a too large or malformed body is the client's fault.
    const clientError = asClientError(exception);
    if (clientError) return { status: clientError.status, body: { logId, status: false, ...clientError.envelope } };
    return { status: 500, body: { logId, status: false, message: 'Internal server error', code: ErrorCode.InternalError } };
  }
}

function bodyParserMessage(exception: HttpException): string | undefined {
  const response = exception.getResponse();
  if (typeof response === 'object' && response && 'message' in response) {
    const message = (response as { message: unknown }).message;
    if (typeof message === 'string' && /JSON/.test(message)) return 'Request body is not valid JSON';
  }
  return undefined;
}

function asClientError(exception: unknown): { status: number; envelope: { message: string; code: ErrorCode } } | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const { status, type } = exception as { status?: unknown; type?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (status === 413) return { status, envelope: { message: 'Request body is too large', code: ErrorCode.PayloadTooLarge } };
  if (status === 415) return { status, envelope: { message: 'Request body must be JSON (Content-Type: application/json)', code: ErrorCode.UnsupportedMediaType } };
  if (type === 'entity.parse.failed') return { status: 400, envelope: { message: 'Request body is not valid JSON', code: ErrorCode.ValidationError } };
  return { status, envelope: { message: 'Request is not valid', code: HTTP_STATUS_TO_CODE[status] ?? ErrorCode.ValidationError } };
}
