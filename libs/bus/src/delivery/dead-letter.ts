import { type BusLogger, errorDetails } from '../logging/bus-logger.interface';
import {
  deadLetterTopic,
  DLQ_HEADERS,
  type IncomingRecord,
  type OutgoingRecord,
} from '../transport/bus-transport.interface';
import type { FailureReport } from './delivery.policy';

/** Why a record is dead-lettered: it can never succeed (permanent), or an unknown error outlasted its deliveries. */
export interface DeadLetterReason {
  error: unknown;
  deliveryCount: number;
  fault: 'permanent' | 'unknown';
}

/** What a dead-letter listener (the metric) is told; the DLQ record itself carries the same in headers. */
export interface DeadLetterNotice {
  topic: string;
  dlq: string;
  group: string;
  id: string;
  key: string;
  fault: DeadLetterReason['fault'];
  deliveryCount: number;
  error: string;
}

export type DeadLetterListener = (notice: DeadLetterNotice) => void;

/** The line an alert matches on (`msg` of an error-level log). */
export const DEAD_LETTER_LOG_MESSAGE = 'bus record DEAD-LETTERED';

/**
 * Moves a record that can never succeed to `<topic>.dlq`, keeping its key, value and headers and
 * adding why and where from; shared by both transports so the DLQ format is one. Never silent:
 * an error log line, and the listener (a Prometheus counter in the services).
 */
export async function deadLetter(
  publish: (topic: string, records: OutgoingRecord[]) => Promise<void>,
  logger: BusLogger,
  failed: { record: IncomingRecord; group: string; reason: DeadLetterReason },
  listener?: DeadLetterListener,
): Promise<void> {
  const { record, group, reason } = failed;
  const dlq = deadLetterTopic(record.topic);
  const error = errorDetails(reason.error);
  await publish(dlq, [
    {
      key: record.key,
      value: record.value,
      headers: {
        ...record.headers,
        [DLQ_HEADERS.error]: error.message.slice(0, 2000),
        [DLQ_HEADERS.fault]: reason.fault,
        [DLQ_HEADERS.originalId]: record.id,
        [DLQ_HEADERS.originalTopic]: record.topic,
        [DLQ_HEADERS.group]: group,
        [DLQ_HEADERS.deliveryCount]: String(reason.deliveryCount),
        [DLQ_HEADERS.at]: new Date().toISOString(),
      },
    },
  ]);
  const notice: DeadLetterNotice = {
    topic: record.topic,
    dlq,
    group,
    id: record.id,
    key: record.key,
    fault: reason.fault,
    deliveryCount: reason.deliveryCount,
    error: error.message,
  };
  logger.error({ ...notice, err: error }, DEAD_LETTER_LOG_MESSAGE);
  listener?.(notice);
}

/** One log line per failed delivery: a dependency away is a warning (it will be retried), anything else an error. */
export function logDeliveryFailure(logger: BusLogger, fields: Record<string, unknown>, failure: FailureReport): void {
  const { error, fault, deliveryCount, transientFailures, retryInMs } = failure;
  const line = { ...fields, fault, deliveryCount, transientFailures, retryInMs, err: errorDetails(error) };
  if (fault === 'transient') logger.warn(line, 'bus handler failed: dependency unavailable, retrying');
  else logger.error(line, retryInMs === null ? 'bus handler failed: giving up' : 'bus handler failed');
}
