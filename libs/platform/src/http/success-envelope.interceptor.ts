import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { SuccessEnvelope } from '@pay/contracts';
import type { FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { requestLogId } from './log-id.hooks';

/** What a controller returns: the envelope's message and data; the logId is added here. */
export class Reply<T> {
  constructor(
    readonly message: string,
    readonly data: T,
  ) {}
}

@Injectable()
export class SuccessEnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      map((value: unknown): unknown => {
        if (!(value instanceof Reply)) return value;
        const body: SuccessEnvelope<unknown> = { logId: requestLogId(req), status: true, message: value.message, data: value.data };
        return body;
      }),
    );
  }
}
