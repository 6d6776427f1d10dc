/** One step of a stop: its name for the operator, and what it does. */
export type Step = readonly [name: string, run: () => unknown];

/** A service's stop: its steps, in order, and which one it is on (spread into a RunningService). */
export interface OrderedStop {
  /** Runs every step in turn; a step that throws ends the stop with its error. */
  stop(): Promise<void>;
  /** The step running now ('not started', or 'done' once every step has finished) */
  stopStep(): string;
}

/**
 * The steps of a service's stop, each named for the operator: when SHUTDOWN_TIMEOUT_MS passes
 * first, runService's last line says which step the process was still waiting on (a database
 * pool behind a failed-over primary, a broker that left, a request that would not finish).
 */
export function stopInOrder(steps: readonly Step[]): OrderedStop {
  let current = 'not started';
  return {
    stopStep: () => current,
    stop: async () => {
      for (const [name, run] of steps) {
        current = name;
        await run();
      }
      current = 'done';
    },
  };
}

/** What every consumer service (ledger, payout, workers) stops the same way. */
export interface ServiceParts {
  ops: { shuttingDown(): void; close(): Promise<void> };
  topics: { stop(): void };
  transport: { close(): Promise<void> };
  prisma: { $disconnect(): Promise<void> };
  pool: { end(): Promise<void> };
}

/**
 * A consumer service's stop: readiness turns 503 first, then the service's own steps (its
 * consumers and loops finish the work in hand), then the bus, the ops port, `beforeDatabase`
 * (say a Redis connection) and the database last, since every step before may still write to it.
 */
export function serviceStop(
  parts: ServiceParts,
  own: readonly Step[],
  beforeDatabase: readonly Step[] = [],
): OrderedStop {
  return stopInOrder([
    ['readiness: not ready', () => parts.ops.shuttingDown()],
    ...own,
    ['topic readiness checks', () => parts.topics.stop()],
    ['bus transport', () => parts.transport.close()],
    ['ops port', () => parts.ops.close()],
    ...beforeDatabase,
    ['database (Prisma)', () => parts.prisma.$disconnect()],
    ['database pool', () => parts.pool.end()],
  ]);
}
