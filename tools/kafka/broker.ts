/**
 * The launcher behind tools/kafka/kafka.sh: starts, stops or restarts the one-node Kafka
 * broker kept in a directory (see KafkaBroker). `start` prints the bootstrap address
 * (KAFKA_BROKERS) on stdout and leaves the broker running after it exits.
 */
import { KafkaBroker } from '@pay/testing';

async function main(command: string | undefined, dir: string | undefined): Promise<void> {
  if (!dir || !['start', 'stop', 'restart'].includes(command ?? '')) {
    throw new Error('usage: broker.js start|stop|restart <dir>');
  }
  if (command === 'start') {
    const broker = await KafkaBroker.start({ dir });
    console.log(broker.brokers);
    return;
  }
  const broker = KafkaBroker.attach({ dir });
  if (!broker) throw new Error(`no broker was started in ${dir}`);
  if (command === 'stop') return broker.stop();
  await broker.restart();
  console.log(broker.brokers);
}

main(process.argv[2], process.argv[3]).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
