import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { QueueName } from '@pay/contracts';
import { redisConnection } from '@pay/platform';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { adminBasicAuth } from './admin-auth';

export const BULL_BOARD_PATH = '/ops/queues';

/** Bull Board at /ops/queues behind basic auth (admin / ADMIN_TOKEN): the queues as operators see them. */
export async function mountBullBoard(fastify: FastifyInstance, adminToken: string, redis: { REDIS_URL: string; QUEUE_PREFIX: string }): Promise<() => Promise<void>> {
  const connection = redisConnection(redis.REDIS_URL);
  const queues = Object.values(QueueName).map((name) => new Queue(name, { connection, prefix: redis.QUEUE_PREFIX }));
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: false })), serverAdapter });
  // Its own plugin scope, so the basic auth guards the board's routes and nothing else.
  await fastify.register(async (board) => {
    board.addHook('onRequest', adminBasicAuth(adminToken));
    await board.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
  });
  return async () => void (await Promise.all(queues.map((q) => q.close())));
}
