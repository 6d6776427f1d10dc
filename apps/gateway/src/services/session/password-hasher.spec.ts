import { readdirSync, readFileSync } from 'node:fs';
import { hashPassword } from '@pay/persistence';
import { Registry } from 'prom-client';
import { PasswordHasher } from './password-hasher';
import { RetryLaterError } from './retry-later.error';

describe('PasswordHasher: argon2id on threads of its own, behind a bounded queue', () => {
  let registry: Registry;
  let hasher: PasswordHasher;

  const start = (concurrency: number, queueDepth: number) => {
    registry = new Registry();
    hasher = new PasswordHasher({ concurrency, queueDepth }, registry);
    hasher.onModuleInit();
  };
  const done = async (operation: string) =>
    (await registry.getSingleMetric('password_hashing_total')?.get())?.values.find(
      (v) => v.labels.operation === operation,
    )?.value ?? 0;

  afterEach(() => hasher.onModuleDestroy());

  it("hashes with OWASP's parameters and verifies: the right password matches, another does not", async () => {
    start(1, 4);
    const hash = await hasher.hash('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(hash, 'correct horse battery staple')).toBe(true);
    expect(await hasher.verify(hash, 'wrong horse battery staple')).toBe(false);
    // A hash made elsewhere (the admin CLI, the test helpers) verifies the same.
    expect(await hasher.verify(await hashPassword('from the CLI, 12+'), 'from the CLI, 12+')).toBe(true);
  });

  it('without a hash, does the same argon2 work against a dummy and answers false; an unparseable hash is a mismatch', async () => {
    start(1, 4);
    const before = await done('verify');
    expect(await hasher.verify(null, 'anything at all')).toBe(false);
    expect(await done('verify')).toBe(before + 1);
    expect(await hasher.verify('not a hash', 'anything at all')).toBe(false);
  });

  it('runs its threads at nice 10, so they yield the CPU to the event loop (Linux)', async () => {
    start(2, 4);
    await hasher.verify(null, 'warm-up');
    const nices = readdirSync('/proc/self/task').map(
      (tid) => readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16],
    );
    expect(nices.filter((n) => n === '10')).toHaveLength(2);
    expect(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]).toBe('0');
  });

  it('refuses at once, 429 with Retry-After 1, what would not get a thread or a place in the queue', async () => {
    start(1, 2);
    const hash = await hashPassword('correct horse battery staple');
    // The start-up's own job (the dummy hash) is done: the thread is free.
    await hasher.verify(null, 'warm-up');
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => hasher.verify(hash, 'a guess, wrong')));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(refused).toHaveLength(3);
    for (const r of refused as PromiseRejectedResult[]) {
      expect(r.reason).toBeInstanceOf(RetryLaterError);
      expect(r.reason).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    }
    expect(() => hasher.checkRoom()).not.toThrow();
    expect((await registry.getSingleMetric('password_hashing_refused_total')?.get())?.values[0].value).toBe(3);
  });
});
