import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { QueueName } from '@pay/contracts';
import { type Logger, warnOnError } from '@pay/platform';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { adminBasicAuth } from '../../kernel/auth/admin/admin-token.guard';

export const BULL_BOARD_PATH = '/ops/queues';

/** Bull Board at /ops/queues behind basic auth (admin / ADMIN_TOKEN): the queues as operators see them. */
export async function mountBullBoard(
  fastify: FastifyInstance,
  adminTokens: string[],
  redis: { connection: Redis; prefix: string; logger: Logger },
): Promise<() => Promise<void>> {
  // On the gateway's fail-fast connection: while Redis is away the board's pages fail at once instead of hanging.
  const queues = Object.values(QueueName).map((name) =>
    warnOnError(new Queue(name, { connection: redis.connection, prefix: redis.prefix }), redis.logger, `queue ${name}`),
  );
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: false })), serverAdapter });
  // Its own plugin scope, so the basic auth guards the board's routes and nothing else.
  await fastify.register(async (board) => {
    board.addHook('onRequest', adminBasicAuth(adminTokens));
    await board.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
  });
  return async () => void (await Promise.all(queues.map((q) => q.close())));
}
