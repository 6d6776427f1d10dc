import { type BusLogger, errorDetails } from '../logging/bus-logger.interface';
import { deadLetterTopic, DLQ_HEADERS, type IncomingRecord, type OutgoingRecord } from '../transport/bus-transport.interface';

/**
 * Moves a record that exhausted its deliveries to `<topic>.dlq`, keeping its key, value and
 * headers and adding why and where from; shared by both transports so the DLQ format is one.
 */
export async function deadLetter(
  publish: (topic: string, records: OutgoingRecord[]) => Promise<void>,
  logger: BusLogger,
  failed: { record: IncomingRecord; group: string; error: unknown; deliveryCount: number },
): Promise<void> {
  const { record, group, error, deliveryCount } = failed;
  const dlq = deadLetterTopic(record.topic);
  await publish(dlq, [
    {
      key: record.key,
      value: record.value,
      headers: {
        ...record.headers,
        [DLQ_HEADERS.error]: errorDetails(error).message,
        [DLQ_HEADERS.originalId]: record.id,
        [DLQ_HEADERS.originalTopic]: record.topic,
        [DLQ_HEADERS.group]: group,
        [DLQ_HEADERS.deliveryCount]: String(deliveryCount),
      },
    },
  ]);
  logger.error(
    { topic: record.topic, group, id: record.id, key: record.key, deliveryCount, dlq, err: errorDetails(error) },
    'bus record DEAD-LETTERED after max deliveries',
  );
}
