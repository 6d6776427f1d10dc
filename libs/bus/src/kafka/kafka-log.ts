import { type LogEntry, logLevel } from 'kafkajs';
import type { BusLogger } from '../logging/bus-logger.interface';

/**
 * Bridges kafkajs's own logs into the service logger, with their namespace (Connection,
 * Consumer, Producer...) so a line says which part of the client spoke. Below warn kafkajs is
 * chatty (every join, every commit) and stays quiet.
 */
export function kafkaLogCreator(logger: BusLogger) {
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      const { message, timestamp: _timestamp, logger: _name, ...fields } = log;
      const line = { namespace, kafka: fields };
      if (level === logLevel.ERROR || level === logLevel.NOTHING) logger.error(line, `kafkajs: ${message}`);
      else if (level === logLevel.WARN) logger.warn(line, `kafkajs: ${message}`);
    };
}
