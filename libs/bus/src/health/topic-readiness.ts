import { BusLogger, errorDetails, noopLogger } from '../logging/bus-logger.interface';
import { BusTransport, deadLetterTopic, TopicCheck } from '../transport/bus-transport.interface';

/** Each topic and its dead-letter topic: what a service that publishes to or consumes them needs to exist. */
export const withDeadLetterTopics = (topics: readonly string[]): string[] =>
  topics.flatMap((t) => [t, deadLetterTopic(t)]);

export interface TopicReadinessOptions {
  logger?: BusLogger;
  /** How often the broker is asked again while something is wrong. */
  intervalMs?: number;
}

function describeProblem({ missing, wrongPartitions }: TopicCheck): string | null {
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`bus topics missing: ${missing.join(', ')}`);
  if (wrongPartitions.length > 0) {
    parts.push(
      `bus topics with the wrong partition count: ${wrongPartitions.map((w) => `${w.topic} has ${w.actual}, expected ${w.expected}`).join('; ')}`,
    );
  }
  return parts.length > 0 ? `${parts.join('; ')} (create them as kafka-init does; see the README runbook)` : null;
}

/**
 * Readiness check `bus-topics`: every topic the service publishes to or consumes exists with the
 * configured partition count. Topics are not created by the services in production (a typo must
 * not make a 1-partition topic), so a missing one would otherwise show only as failed sends. Asked
 * at start and every `intervalMs` until it holds (the answer is cached: a probe costs the broker
 * nothing); each failed round logs an error naming the topics.
 */
export class TopicReadiness {
  readonly name = 'bus-topics';
  private problem: Error | null = new Error('bus topics not checked yet');
  private timer: NodeJS.Timeout | null = null;
  private readonly logger: BusLogger;
  private readonly intervalMs: number;

  constructor(
    private readonly transport: Pick<BusTransport, 'checkTopics'>,
    private readonly topics: readonly string[],
    options: TopicReadinessOptions = {},
  ) {
    this.logger = options.logger ?? noopLogger;
    this.intervalMs = options.intervalMs ?? 10_000;
  }

  /** First round now; then again every intervalMs until every topic is there. */
  start(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.round(), 0);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async check(): Promise<void> {
    if (this.problem) throw this.problem;
  }

  private async round(): Promise<void> {
    try {
      const found = await this.transport.checkTopics(this.topics);
      const problem = describeProblem(found);
      if (!problem) {
        if (this.problem) this.logger.info({ topics: this.topics.length }, 'bus topics present');
        this.problem = null;
        this.timer = null;
        return;
      }
      this.problem = new Error(problem);
      this.logger.error(
        { missing: found.missing, wrongPartitions: found.wrongPartitions, retryInMs: this.intervalMs },
        `NOT READY: ${problem}`,
      );
    } catch (error) {
      this.problem = new Error(`bus topics could not be checked: ${errorDetails(error).message}`);
      this.logger.warn(
        { err: errorDetails(error), retryInMs: this.intervalMs },
        'bus topics could not be checked; asking again',
      );
    }
    if (this.timer) {
      this.timer = setTimeout(() => void this.round(), this.intervalMs);
      this.timer.unref();
    }
  }
}
