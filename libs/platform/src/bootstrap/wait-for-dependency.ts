import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { ConfigError } from '../config/config';
import { isMisconfiguration } from '../faults/fault';
import { errorText } from '../logging/throttled-warn';

export interface WaitOptions {
  logger: Logger;
  /** Turns the error into the line an operator reads (e.g. without a password); default: its message */
  describe?: (err: unknown) => string;
  /** Longest wait between attempts (the first is 0.5 s, then doubling) */
  maxDelayMs?: number;
}

/**
 * Start-up: waits until `check` passes, retrying with a warn line per attempt, so a pod that
 * starts during a database or Redis failover waits for it instead of crash-looping. A wrong
 * setting (login refused, no such database, malformed URL) never fixes itself: that fails at
 * once as a ConfigError, which runService prints as one line and exits 1.
 */
export async function waitForDependency(name: string, check: () => Promise<unknown>, opts: WaitOptions): Promise<void> {
  const describe = opts.describe ?? errorText;
  for (let attempt = 1; ; attempt++) {
    try {
      await check();
      if (attempt > 1) opts.logger.info({ dependency: name, attempts: attempt }, `${name} is reachable`);
      return;
    } catch (err) {
      if (isMisconfiguration(err))
        throw new ConfigError([`${name}: ${describe(err)} (a setting is wrong; not retrying)`]);
      const retryInMs = Math.min(500 * 2 ** (attempt - 1), opts.maxDelayMs ?? 5000);
      opts.logger.warn({ dependency: name, attempt, retryInMs, err: describe(err) }, `waiting for ${name} at start-up`);
      await sleep(retryInMs);
    }
  }
}
