import 'reflect-metadata';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { uniqueName, waitFor } from '../testing/bus-transport.contract';
import { redisHarness, RedisTestHarness } from '../testing/redis-test.harness';
import { BusTransport } from '../transport/bus-transport.interface';
import { BusContext } from './bus.context';
import { BUS_TRANSPORT, BusPublisher } from './bus.publisher';
import { BusServer } from './bus.server';
import { BusErrorFilter } from './bus-error.filter';
import { PermanentError } from '@pay/platform';
import { deadLetterTopic, DLQ_HEADERS, IncomingRecord } from '../transport/bus-transport.interface';

const TOPIC = uniqueName('nest.payout.events');
const seen: { payload: unknown; key: string; deliveryCount: number }[] = [];
let failFirst = true;
let outageFailures = 0;

@Controller()
class PayoutEventsController {
  @EventPattern(TOPIC)
  async onPayoutEvent(@Payload() payload: { id: string }, @Ctx() ctx: BusContext): Promise<void> {
    seen.push({ payload, key: ctx.getKey(), deliveryCount: ctx.getRecord().deliveryCount });
    if (payload.id === 'flaky' && failFirst) {
      failFirst = false;
      throw new Error('downstream timeout');
    }
    // The database is away for a while: more failures than maxDeliveries allows for unknown errors.
    if (payload.id === 'during-outage' && outageFailures++ < 8) {
      throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    }
    if (payload.id === 'contract-v9') throw new PermanentError('unknown contract version 9');
  }
}

const dead: IncomingRecord[] = [];

describe('BusServer (Nest custom transport) over Redis Streams', () => {
  let h: RedisTestHarness;
  let transport: BusTransport;
  let app: INestMicroservice;

  beforeAll(async () => {
    h = redisHarness();
    transport = h.transport({ maxDeliveries: 3 });
    await h
      .transport()
      .subscribe({ topic: deadLetterTopic(TOPIC), group: 'dlq-reader', handler: async (r) => void dead.push(r) });

    @Module({
      controllers: [PayoutEventsController],
      providers: [{ provide: BUS_TRANSPORT, useValue: transport }, BusPublisher],
    })
    class TestModule {}

    app = await NestFactory.createMicroservice(TestModule, {
      strategy: new BusServer({ transport, group: 'payout' }),
      logger: false,
    });
    app.useGlobalFilters(new BusErrorFilter());
    await app.listen();
  });

  afterAll(async () => {
    await app.close();
    await h.dispose();
  });

  it('routes records to @EventPattern handlers with the parsed payload and the record context', async () => {
    await app.get(BusPublisher).emit(TOPIC, { key: 'merchant-1', value: { id: 'a', amount: 150_000n } });
    await waitFor('handler call', () => seen.some((s) => (s.payload as { id: string }).id === 'a'), 5_000);
    expect(seen.find((s) => (s.payload as { id: string }).id === 'a')).toEqual({
      payload: { id: 'a', amount: '150000' },
      key: 'merchant-1',
      deliveryCount: 1,
    });
  });

  it('does not acknowledge when the handler throws: the record comes back', async () => {
    await app.get(BusPublisher).emit(TOPIC, { key: 'merchant-2', value: { id: 'flaky' } });
    await waitFor(
      'redelivery',
      () => seen.filter((s) => (s.payload as { id: string }).id === 'flaky').length === 2,
      5_000,
    );
    expect(seen.filter((s) => (s.payload as { id: string }).id === 'flaky').map((s) => s.deliveryCount)).toEqual([
      1, 2,
    ]);
    await waitFor('acknowledged', async () => (await h.unacknowledged(TOPIC, 'payout')) === 0, 5_000);
  });

  it('hands the handler error as thrown to the delivery policy: a database outage is retried, never dead-lettered', async () => {
    await app.get(BusPublisher).emit(TOPIC, { key: 'merchant-3', value: { id: 'during-outage' } });
    await waitFor('handled after the outage', () => outageFailures === 9, 10_000);
    await waitFor('acknowledged', async () => (await h.unacknowledged(TOPIC, 'payout')) === 0, 5_000);
    expect(dead.filter((d) => d.value.includes('during-outage'))).toHaveLength(0);
  });

  it('dead-letters a permanent failure at once, fault "permanent"', async () => {
    await app.get(BusPublisher).emit(TOPIC, { key: 'merchant-4', value: { id: 'contract-v9' } });
    await waitFor('dead letter', () => dead.some((d) => d.value.includes('contract-v9')), 5_000);
    const letter = dead.find((d) => d.value.includes('contract-v9'));
    expect(letter?.headers[DLQ_HEADERS.fault]).toBe('permanent');
    expect(letter?.headers[DLQ_HEADERS.deliveryCount]).toBe('1');
    expect(seen.filter((s) => (s.payload as { id: string }).id === 'contract-v9')).toHaveLength(1);
  });
});
