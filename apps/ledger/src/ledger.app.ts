import { withDeadLetterTopics } from '@pay/bus';
import { startBusService } from '@pay/bus-service';
import { ConsumerGroup, Topic } from '@pay/contracts';
import { AccountFolder } from '@pay/ledger-core';
import { throttledWarn } from '@pay/platform';
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
      // The books' account balances: what the batches moved per account, folded (decision 0049).
      const folder = new AccountFolder(pool, throttledWarn(logger, 'folding account balances failed; retrying'));
      await app.listen();
      relay.start();
      folder.start();
      await startListening();
      return {
        stop: [
          ['bus consumer (the batch in hand finishes)', () => app.close()],
          ['LISTEN connection', () => listener.stop()],
          ['outbox relay', () => relay.stop()],
          ['account balance folding', () => folder.stop()],
        ],
      };
    },
  );
}
