import { useCallback, useEffect, useRef, useState } from 'react';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Runs `load` when `deps` change; the last call wins. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    setError(null);
    load().then(
      (d) => {
        if (call === latest.current) {
          setData(d);
          setLoading(false);
        }
      },
      (e: unknown) => {
        if (call === latest.current) {
          setError(e);
          setLoading(false);
        }
      },
    );
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data, error, loading, reload };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A cursor list: the first page when `deps` change, then "Load more" appends. */
export function useCursorList<T>(loadPage: (cursor: string | null) => Promise<Page<T>>, deps: readonly unknown[]) {
  const [items, setItems] = useState<T[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);

  const run = useCallback((cursor: string | null) => {
    const call = ++latest.current;
    setLoading(true);
    setError(null);
    loadPage(cursor).then(
      (page) => {
        if (call !== latest.current) return;
        setItems((prev) => (cursor ? [...prev, ...page.items] : page.items));
        setNextCursor(page.nextCursor);
        setLoading(false);
      },
      (e: unknown) => {
        if (call !== latest.current) return;
        setError(e);
        setLoading(false);
      },
    );
  }, deps);

  useEffect(() => run(null), [run, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  const loadMore = useCallback(() => nextCursor && run(nextCursor), [run, nextCursor]);
  return { items, nextCursor, error, loading, reload, loadMore };
}

/** A button's call: busy while it runs, its error kept for the form; resolves to `{ value }`, or null on failure. */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A): Promise<{ value: R } | null> => {
      setBusy(true);
      setError(null);
      try {
        return { value: await fn(...args) };
      } catch (e) {
        setError(e);
        return null;
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  const reset = useCallback(() => setError(null), []);
  return { busy, error, run, reset };
}
