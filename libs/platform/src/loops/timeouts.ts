/** `work`, or a rejection with `message` once `ms` have passed without it settling (the work itself is not cancelled). */
export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for `work` to settle, but at most `ms`; never rejects (what `work` did is not reported). */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  await withTimeout(work, ms, '').then(
    () => undefined,
    () => undefined,
  );
}
