import { classifyFault } from '../faults/fault';

/** The slice of a logger these need (a pino logger, or the bus' BusLogger). */
export interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/** The one line that says what went wrong: message and code, not a stack (these are expected while a dependency is away). */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

/**
 * A warn line per error, at most one every `intervalMs` (with how many were left out since):
 * a database that is away for a minute must not write a line per pooled connection per retry.
 */
export function throttledWarn(logger: WarnLogger, msg: string, intervalMs = 10_000): (err: unknown) => void {
  let last = -Infinity;
  let suppressed = 0;
  return (err) => {
    const now = Date.now();
    if (now - last < intervalMs) {
      suppressed += 1;
      return;
    }
    logger.warn({ err: errorText(err), ...(suppressed ? { suppressed } : {}) }, msg);
    last = now;
    suppressed = 0;
  };
}

/** Anything that emits 'error' events: pg pools and clients, ioredis, BullMQ queues and workers. */
interface ErrorEmitter {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Listens to a long-lived connection's 'error' events, which otherwise kill the process (an
 * EventEmitter throws an 'error' nobody listens to). The connection's own reconnect story is
 * written where it is made; this only keeps the process alive and says so in the log.
 */
export function warnOnError<T extends ErrorEmitter>(emitter: T, logger: WarnLogger, what: string): T {
  emitter.on('error', throttledWarn(logger, `${what}: connection error (reconnecting)`));
  return emitter;
}

/**
 * For a loop's failed round (a poller, a dispatcher): while a dependency is away every round
 * fails the same way, so a transient fault is a throttled warn line; anything else is an error
 * line every time. The loop itself carries on either way.
 */
export function roundFailureLog(
  logger: WarnLogger & { error(obj: object, msg: string): void },
  msg: string,
): (err: unknown) => void {
  const warn = throttledWarn(logger, `${msg}; will retry (a dependency is unavailable)`);
  return (err) =>
    classifyFault(err) === 'transient' ? warn(err) : logger.error({ err: errorText(err) }, `${msg}; will retry`);
}
