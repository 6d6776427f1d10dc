import { logLevel } from 'kafkajs';
import { kafkaLogCreator } from './kafka-log';

describe('kafkajs logs through the service logger', () => {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const record = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj, msg });
  const log = kafkaLogCreator({ info: record('info'), warn: record('warn'), error: record('error') })();
  const entry = (level: logLevel, namespace: string, message: string) => ({
    namespace,
    level,
    label: logLevel[level],
    log: {
      timestamp: '2026-01-01T00:00:00.000Z',
      logger: 'kafkajs',
      message,
      broker: 'k1:9093',
      groupId: 'staging.ledger',
    },
  });
  beforeEach(() => (lines.length = 0));

  it('keeps the namespace and the fields, maps error and warn, drops the timestamp', () => {
    log(entry(logLevel.ERROR, 'Connection', 'SASL SCRAM SHA512 authentication failed'));
    log(entry(logLevel.WARN, 'ConsumerGroup', 'Restarting the consumer'));
    expect(lines).toEqual([
      {
        level: 'error',
        obj: { namespace: 'Connection', kafka: { broker: 'k1:9093', groupId: 'staging.ledger' } },
        msg: 'kafkajs: SASL SCRAM SHA512 authentication failed',
      },
      {
        level: 'warn',
        obj: { namespace: 'ConsumerGroup', kafka: { broker: 'k1:9093', groupId: 'staging.ledger' } },
        msg: 'kafkajs: Restarting the consumer',
      },
    ]);
  });

  it('stays quiet below warn', () => {
    log(entry(logLevel.INFO, 'Consumer', 'Starting'));
    log(entry(logLevel.DEBUG, 'Connection', 'Request Metadata(key: 3, version: 6)'));
    expect(lines).toEqual([]);
  });
});
