/** What a round says about the next one. */
export interface RoundResult {
  /** More work is waiting now (a full batch was taken): run again at once. */
  more?: boolean;
  /** The earliest time known work becomes due (a recheck, a lease that lapses); null when none. */
  nextDueAt?: Date | null;
}

export interface WakeLoopOptions {
  /** One round of work; resolves with what it knows about the next. */
  round: () => Promise<RoundResult | void>;
  /** The safety net: the longest the loop sleeps without being woken. */
  safetyIntervalMs: number;
  /** A failed round is retried after 250 ms doubling up to the safety interval; this hears each failure. */
  onError: (err: unknown) => void;
}

const FIRST_RETRY_MS = 250;

/**
 * A loop that runs rounds when woken (a notification, a bus event), when known work becomes due,
 * and otherwise only every `safetyIntervalMs`. Wakeups coalesce: at most one round runs at a
 * time, and any number of `wake()` calls during it cause exactly one more round after it, so a
 * burst of notifications becomes a few batched rounds rather than one round each.
 */
export class WakeLoop {
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private failures = 0;

  constructor(private readonly options: WakeLoopOptions) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Run a round as soon as possible (after the one in progress, if any). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // A timer already armed stays: it is for the earliest known due time, and firing early costs one cheap round.
    this.running = this.runRound();
  }

  /** Make sure a round runs no later than `at` (known work due then); an earlier timer stays. */
  wakeAt(at: Date): void {
    if (!this.stopped) this.arm(at.getTime());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await this.running;
  }

  private async runRound(): Promise<void> {
    let next = Date.now() + this.options.safetyIntervalMs;
    try {
      const result = (await this.options.round()) ?? {};
      this.failures = 0;
      if (result.more) this.again = true;
      if (result.nextDueAt) next = Math.min(next, result.nextDueAt.getTime());
    } catch (err) {
      this.failures += 1;
      this.options.onError(err);
      next = Date.now() + Math.min(FIRST_RETRY_MS * 2 ** (this.failures - 1), this.options.safetyIntervalMs);
    } finally {
      this.running = undefined;
    }
    if (this.stopped) return;
    if (this.again && this.failures === 0) {
      this.again = false;
      this.running = this.runRound();
      return;
    }
    this.again = false;
    this.arm(next);
  }

  private arm(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.wake();
      },
      Math.max(0, at - Date.now()),
    );
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }
}
