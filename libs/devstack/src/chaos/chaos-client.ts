export interface ApiAnswer {
  status: number;
  body: { message?: string; data?: Record<string, unknown>; code?: string };
}

/** A 5xx other than 503: the service failed where it should have waited or refused cleanly. */
export interface ServerError {
  path: string;
  status: number;
  code?: string;
  message?: string;
  merchantTrxId?: string;
  atMs: number;
}

export interface HttpTally {
  /** Every answer by HTTP status, 5xx included (each retry counts) */
  byStatus: Record<string, number>;
  /** Requests that got no answer at all (gateway down or restarting, timeout) */
  connectionErrors: number;
  /** The first 50 non-503 5xx answers, for the report */
  serverErrors: ServerError[];
  /** Requests given up after the deadline without a definitive answer */
  unanswered: { path: string; merchantTrxId?: string; atMs: number }[];
}

/**
 * The merchant's side of the chaos run: POSTs until the answer is definitive (2xx or 4xx).
 * A 429 (after its Retry-After), a 503, a 5xx or no answer is retried with the same body (the same merchantTrxId), as a
 * merchant's integration would, with a capped backoff and a deadline long enough to outlast an
 * outage. Every status is counted; a 5xx other than 503 is also recorded as a violation.
 */
export class ChaosClient {
  readonly tally: HttpTally = { byStatus: {}, connectionErrors: 0, serverErrors: [], unanswered: [] };
  private serverErrorCount = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly started: number,
    private readonly random: () => number,
    private readonly deadlineMs = 300_000,
  ) {}

  get serverErrorTotal(): number {
    return this.serverErrorCount;
  }

  async post(path: string, token: string, body: Record<string, unknown>): Promise<ApiAnswer> {
    const deadline = Date.now() + this.deadlineMs;
    const merchantTrxId = body.merchantTrxId as string | undefined;
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs: number | undefined;
      try {
        const res = await fetch(`${this.baseUrl}/api/v1/${path}`, {
          method: 'POST',
          headers: { token, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
        this.tally.byStatus[res.status] = (this.tally.byStatus[res.status] ?? 0) + 1;
        const answer = { status: res.status, body: (await res.json().catch(() => ({}))) as ApiAnswer['body'] };
        // A 429 is retried as a well-behaved merchant does: the same request, after Retry-After.
        if (res.status === 429) retryAfterMs = Number(res.headers.get('retry-after') ?? 1) * 1000;
        else if (res.status < 500) return answer;
        if (res.status >= 500 && res.status !== 503) this.recordServerError(path, merchantTrxId, answer);
      } catch {
        this.tally.connectionErrors++;
      }
      if (Date.now() > deadline) {
        // Reported as a violation; the run goes on so the rest can still be checked.
        this.tally.unanswered.push({ path, merchantTrxId, atMs: Date.now() - this.started });
        return { status: 0, body: {} };
      }
      await new Promise((r) =>
        setTimeout(r, retryAfterMs ?? Math.min(2_000, 100 * 2 ** Math.min(attempt, 4)) * (0.5 + this.random())),
      );
    }
  }

  private recordServerError(path: string, merchantTrxId: string | undefined, answer: ApiAnswer): void {
    this.serverErrorCount++;
    if (this.tally.serverErrors.length < 50) {
      this.tally.serverErrors.push({
        path,
        status: answer.status,
        code: answer.body.code,
        message: answer.body.message,
        merchantTrxId,
        atMs: Date.now() - this.started,
      });
    }
  }
}
