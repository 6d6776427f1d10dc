import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino, { type DestinationStream, type Logger } from 'pino';
import { LOG_REDACTION, maskTokens } from './redact';

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

/**
 * JSON logs on stdout (or `destination`), one object a line, each carrying the current logId when
 * there is one. Credentials in URLs and request headers are redacted (see LOG_REDACTION), and a
 * merchant token's shape is masked wherever it is in the line, however deep (maskTokens on the
 * written text: pino's redaction only reaches the paths it is given).
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: LOG_REDACTION,
    hooks: { streamWrite: maskTokens },
    mixin: () => {
      const logId = currentLogId();
      return logId ? { logId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
