import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';

/**
 * Lets a handler's own error reach the transport unchanged. Nest's default RPC filter replaces any
 * error with `{ status: 'error', message: 'Internal server error' }`, which would hide *why* it
 * failed: a database outage (retry for as long as it takes) would look like an unknown error (dead-
 * lettered after a few tries). Every app that serves a BusServer registers it globally.
 */
@Catch()
export class BusErrorFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

/** What Nest's default filter leaves of an error: a sign the app forgot BusErrorFilter. */
export function isNestMangledError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof Error) &&
    (error as { status?: unknown }).status === 'error'
  );
}
