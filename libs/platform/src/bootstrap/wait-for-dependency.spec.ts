import pino from 'pino';
import { ConfigError } from '../config/config';
import { throttledWarn } from '../logging/throttled-warn';
import { waitForDependency } from './wait-for-dependency';

/** A real pino logger writing into an array. */
function capturingLogger() {
  const lines: { level: number; msg: string; suppressed?: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('waitForDependency', () => {
  it('retries an outage with a warn line per attempt until the dependency answers', async () => {
    const { logger, lines } = capturingLogger();
    let calls = 0;
    await waitForDependency(
      'postgres',
      async () => {
        if (++calls < 4) throw refused();
      },
      { logger, maxDelayMs: 5 },
    );
    expect(calls).toBe(4);
    expect(lines.filter((l) => l.msg === 'waiting for postgres at start-up')).toHaveLength(3);
    expect(lines.at(-1)?.msg).toBe('postgres is reachable');
  });

  it('gives up at once, as a ConfigError naming the dependency, when a setting is wrong', async () => {
    const { logger } = capturingLogger();
    let calls = 0;
    const wrong = waitForDependency(
      'postgres',
      async () => {
        calls += 1;
        throw Object.assign(new Error('password authentication failed for user "pay"'), { code: '28P01' });
      },
      { logger, maxDelayMs: 5 },
    );
    await expect(wrong).rejects.toBeInstanceOf(ConfigError);
    await expect(wrong).rejects.toThrow(
      'postgres: password authentication failed for user "pay" (28P01) (a setting is wrong; not retrying)',
    );
    expect(calls).toBe(1);
  });
});

describe('throttledWarn', () => {
  it('writes one line per interval and counts the ones it left out', async () => {
    const { logger, lines } = capturingLogger();
    const warn = throttledWarn(logger, 'pool error', 50);
    for (let i = 0; i < 5; i++) warn(refused());
    await new Promise((r) => setTimeout(r, 60));
    warn(refused());
    expect(lines.map((l) => [l.msg, l.suppressed])).toEqual([
      ['pool error', undefined],
      ['pool error', 4],
    ]);
  });
});
