import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { INestApplication } from '@nestjs/common';
import { QueueName } from '@pay/contracts';
import { redisConnection } from '@pay/platform';
import { Queue } from 'bullmq';
import { adminBasicAuth } from './admin-auth';

export const BULL_BOARD_PATH = '/ops/queues';

/** Bull Board at /ops/queues behind basic auth (admin / ADMIN_TOKEN): the queues as operators see them. */
export function mountBullBoard(app: INestApplication, adminToken: string, redis: { REDIS_URL: string; QUEUE_PREFIX: string }): () => Promise<void> {
  const connection = redisConnection(redis.REDIS_URL);
  const queues = Object.values(QueueName).map((name) => new Queue(name, { connection, prefix: redis.QUEUE_PREFIX }));
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: false })), serverAdapter });
  app.use(BULL_BOARD_PATH, adminBasicAuth(adminToken), serverAdapter.getRouter());
  return async () => void (await Promise.all(queues.map((q) => q.close())));
}
