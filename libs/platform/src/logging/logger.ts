import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

interface LogContext {
  logId: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** A new request/trace id. UUIDv4 keeps them unguessable and unique across services. */
export function newLogId(): string {
  return randomUUID();
}

/** Runs `fn` with `logId` attached to every log line written inside it (including awaited work). */
export function runWithLogId<T>(logId: string, fn: () => T): T {
  return context.run({ logId }, fn);
}

export function currentLogId(): string | undefined {
  return context.getStore()?.logId;
}

/** JSON logs on stdout, one object a line, each carrying the current logId when there is one. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const logId = currentLogId();
      return logId ? { logId } : {};
    },
  });
}
