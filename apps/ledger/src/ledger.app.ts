import { withDeadLetterTopics } from '@pay/bus';
import { startBusService } from '@pay/bus-service';
import { ConsumerGroup, Topic } from '@pay/contracts';
import type { LedgerConfig } from './ledger.config';
import { LedgerModule } from './ledger.module';

/**
 * The ledger process: consumes ledger.commands through the bus, applies each in one Postgres
 * transaction, and relays its outbox to ledger.events. Returns a handle to stop it cleanly.
 */
export function startLedger(config: LedgerConfig, opts: { consumerName?: string } = {}) {
  return startBusService(
    {
      name: 'ledger',
      config,
      // It consumes ledger.commands; its relay publishes the commands and its own events at once, and any other topic at its safety-net poll.
      topics: withDeadLetterTopics(Object.values(Topic)),
      listenLost: 'LISTEN connection lost; reconnecting (the outbox relay waits for its poll meanwhile)',
      startedLog: { transport: config.bus.kind },
    },
    async ({ pool, logger, listener, startListening, outboxRelay, consumer }) => {
      // The command path (apply, relay) runs on plain pg; Prisma serves the rest (docs/decisions/0011).
      const app = await consumer(LedgerModule.register({ pool, logger }), {
        group: ConsumerGroup.Ledger,
        consumerName: opts.consumerName,
      });
      // Woken for its own input and output; every other topic only at its safety-net poll.
      const relay = outboxRelay(config.outbox, [Topic.LedgerCommands, Topic.LedgerEvents]);
      await app.listen();
      relay.start();
      await startListening();
      return {
        stop: [
          ['bus consumer (the batch in hand finishes)', () => app.close()],
          ['LISTEN connection', () => listener.stop()],
          ['outbox relay', () => relay.stop()],
        ],
      };
    },
  );
}
