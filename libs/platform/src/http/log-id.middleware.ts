import type { NextFunction, Request, Response } from 'express';
import { type Logger, newLogId, runWithLogId } from '../logging/logger';

const LOG_ID = Symbol('logId');
type WithLogId = Request & { [LOG_ID]?: string };

/**
 * Gives every request a fresh logId (also on unknown routes and errors), echoes it in the
 * X-Log-Id header and attaches it to every log line written while the request is served.
 * A caller-supplied id is never trusted: it would let one merchant's id collide with another's.
 */
export function logIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const logId = newLogId();
  (req as WithLogId)[LOG_ID] = logId;
  res.setHeader('X-Log-Id', logId);
  runWithLogId(logId, next);
}

export function requestLogId(req: Request): string {
  return (req as WithLogId)[LOG_ID] ?? newLogId();
}

/** One access-log line per request, with its logId, status and duration. */
export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { logId: requestLogId(req), method: req.method, path: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10, ip: req.ip },
        'request',
      );
    });
    next();
  };
}
