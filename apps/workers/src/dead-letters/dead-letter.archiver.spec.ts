import { Topic } from '@pay/contracts';
import type { BusTransport } from '@pay/bus';
import type { DeadLetterRepository } from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { Registry } from 'prom-client';
import { DeadLetterArchiver } from './dead-letter.archiver';

describe('dead_letters_open while the database is away', () => {
  it('keeps the last counts and still lets the scrape answer', async () => {
    let counts: () => Promise<{ topic: string; open: number }[]> = async () => [
      { topic: Topic.LedgerCommands, open: 2 },
    ];
    const repository = { countOpen: () => counts() } as unknown as DeadLetterRepository;
    const registry = new Registry();
    new DeadLetterArchiver({} as BusTransport, repository, createLogger('spec', 'fatal')).registerMetrics(registry);
    const open = async () =>
      Object.fromEntries(
        ((await registry.getSingleMetric('dead_letters_open')?.get())?.values ?? []).map((v) => [
          v.labels.topic,
          v.value,
        ]),
      );

    expect((await open())[Topic.LedgerCommands]).toBe(2);
    counts = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    await expect(registry.metrics()).resolves.toContain(`dead_letters_open{topic="${Topic.LedgerCommands}"} 2`);
    expect((await open())[Topic.PayoutEvents]).toBe(0);
  });
});
