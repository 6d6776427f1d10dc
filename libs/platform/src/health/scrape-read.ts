import { throttledWarn, type WarnLogger } from '../logging/throttled-warn';

/**
 * A database read behind gauges that are filled at scrape time: a scrape within `cacheMs` of the
 * last read reuses its answer (several Prometheus replicas, several gauges of one read), a failed
 * read is not kept (the next scrape asks again), and `update` receives each answer. When the
 * database cannot be asked, the gauges keep their last values and `warning` is logged (throttled).
 * Returns the collect function to give every gauge of the read.
 */
export function scrapeRead<T>(
  read: () => Promise<T>,
  update: (value: T) => void,
  options: { logger: WarnLogger; warning: string; cacheMs?: number },
): () => Promise<void> {
  const cacheMs = options.cacheMs ?? 5_000;
  const warn = throttledWarn(options.logger, options.warning);
  let last: { at: number; reading: Promise<T> } | null = null;
  const cached = (): Promise<T> => {
    if (!last || Date.now() - last.at >= cacheMs) {
      const reading = read();
      last = { at: Date.now(), reading };
      reading.catch(() => {
        if (last?.reading === reading) last = null;
      });
    }
    return last.reading;
  };
  return async () => {
    let value: T;
    try {
      value = await cached();
    } catch (error) {
      warn(error);
      return;
    }
    update(value);
  };
}
