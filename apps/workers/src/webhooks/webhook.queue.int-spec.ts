import { randomUUID } from 'node:crypto';
import { QueueName } from '@pay/contracts';
import type { WebhookScheduleRepository } from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { Worker } from 'bullmq';
import type { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookQueue } from './webhook.queue';

/**
 * The dispatcher re-enqueues a due attempt whose BullMQ job already finished without the attempt
 * being recorded (the chaos run found a delivery pending with 0 attempts for minutes: the add
 * with the same job id was a no-op). Real Redis, a key prefix of its own.
 */
describe('WebhookQueue.enqueue (real Redis)', () => {
  const connection = { url: process.env.TEST_REDIS_URL as string };
  const prefix = `${process.env.TEST_REDIS_PREFIX}whq-${randomUUID().slice(0, 8)}`;
  const queue = new WebhookQueue({} as WebhookDeliveryService, {} as WebhookScheduleRepository, createLogger('workers-test', 'fatal'), { connection, prefix, concurrency: 1, dispatchIntervalMs: 60_000 });

  afterAll(async () => {
    await queue.bullQueue.obliterate({ force: true });
    await queue.stop();
  });

  it('a finished job of a still-due attempt is replaced by a waiting one; a waiting job is left as it is', async () => {
    const deliveryId = randomUUID();
    await queue.enqueue(deliveryId, 0);
    // A worker that finishes the job without recording an attempt (as when the database was away or the worker died).
    let runs = 0;
    const worker = new Worker(QueueName.WebhookDelivery, async () => void runs++, { connection, prefix });
    await new Promise<void>((resolve) => worker.on('completed', () => resolve()));
    await worker.close();
    expect(await (await queue.bullQueue.getJob(`${deliveryId}.0`))?.getState()).toBe('completed');

    await queue.enqueue(deliveryId, 0);
    const job = await queue.bullQueue.getJob(`${deliveryId}.0`);
    expect(await job?.getState()).toBe('waiting');
    const addedAt = job?.timestamp;
    await queue.enqueue(deliveryId, 0);
    expect((await queue.bullQueue.getJob(`${deliveryId}.0`))?.timestamp).toBe(addedAt);
    expect(runs).toBe(1);
  });
});
