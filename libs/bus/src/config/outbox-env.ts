import { configSection, positiveInt } from '@pay/platform';
import { z } from 'zod';

/** The outbox relay's settings (ledger and payout each run one; one publishes at a time). */
export const outboxEnvShape = configSection('outbox', {
  OUTBOX_POLL_MS: positiveInt().default(5_000).meta({
    description: "The relay's safety-net poll; commits that write outbox rows wake it at once (LISTEN/NOTIFY)",
  }),
  OUTBOX_BATCH_SIZE: positiveInt().max(1000).default(200).meta({ description: 'Rows per published batch' }),
  OUTBOX_LINGER_MS: z.coerce.number().int().min(0).max(50).default(3).meta({
    description:
      'After a round that relayed a trickle (rows, no full batch), a wake-up waits this long so a burst goes out as one batch; 0 = off',
  }),
});

export interface OutboxConfig {
  /** The safety-net poll (a commit's NOTIFY wakes the relay at once) */
  pollIntervalMs: number;
  batchSize: number;
  lingerMs: number;
}

export const outboxSection = (env: z.output<z.ZodObject<typeof outboxEnvShape>>): OutboxConfig => ({
  pollIntervalMs: env.OUTBOX_POLL_MS,
  batchSize: env.OUTBOX_BATCH_SIZE,
  lingerMs: env.OUTBOX_LINGER_MS,
});
