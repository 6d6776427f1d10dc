import { ConfigError } from '../config/config';
import { classifyFault, isMisconfiguration } from '../faults/fault';
import { maskTokens } from '../logging/redact';
import { errorText } from '../logging/throttled-warn';
import { requireNodeVersion } from './node-version';

/** What the service writes outside its logger (start-up failures, stray errors): masked as its log lines are. */
function writeStderr(text: string): void {
  process.stderr.write(maskTokens(text));
}

function logLine(
  level: 'info' | 'warn' | 'error' | 'fatal',
  service: string,
  msg: string,
  extra: Record<string, unknown> = {},
): void {
  writeStderr(JSON.stringify({ level, time: new Date().toISOString(), service, msg, ...extra }) + '\n');
}

/**
 * What happens to an error nothing else handled (decided here, once, for every service):
 *
 * - An unhandled promise rejection is logged and the process carries on. A rejection is a
 *   promise nobody awaited: the code that made it has already moved on, nothing was unwound
 *   half-way, and money is safe in PostgreSQL transactions, not in process memory. Crashing
 *   would turn a database or Redis blip (the usual source) into every pod restarting at once.
 * - An uncaught exception from a dependency (transient: a connection error thrown from an
 *   event emitter nobody listened to) is logged and the process carries on: the connection
 *   it came from is already discarded by its pool, and every connection has a listener anyway.
 * - Any other uncaught exception exits 1: a synchronous throw unwound the stack through code
 *   in an unknown state, and a restart is the safe answer (Node's own advice).
 */
function guardProcess(name: string): void {
  process.on('unhandledRejection', (reason) => {
    const kind = classifyFault(reason);
    logLine(kind === 'transient' ? 'warn' : 'error', name, 'unhandled promise rejection (kept running)', {
      fault: kind,
      err:
        kind === 'transient'
          ? errorText(reason)
          : reason instanceof Error
            ? (reason.stack ?? reason.message)
            : String(reason),
    });
  });
  process.on('uncaughtException', (err) => {
    if (classifyFault(err) === 'transient') {
      logLine('warn', name, 'a dependency error escaped its handler (kept running)', { err: errorText(err) });
      return;
    }
    logLine('fatal', name, 'uncaught exception; exiting', { err: err.stack ?? err.message });
    process.exit(1);
  });
}

/** What a service's start gives runService. */
export interface RunningService {
  stop(): Promise<void>;
  /** Settles when the service can no longer work (its bus stopped consuming for good): it is stopped and exits 1 */
  failure?: Promise<Error>;
  /** SHUTDOWN_TIMEOUT_MS: how long stop() may take before the process exits 1 anyway */
  shutdownTimeoutMs: number;
  /** The step stop() is on (stopInOrder), named in the line logged when the deadline passes */
  stopStep?(): string;
}

/**
 * The entry point of every service: starts it, turns a configuration problem (a bad setting,
 * or a dependency refusing our login) into a clear message and exit code 1, and stops it
 * cleanly on SIGTERM/SIGINT (Kubernetes sends SIGTERM). A dependency that is merely down at
 * start-up is waited for inside `start` (waitForDependency), never a reason to exit. A service
 * that reports a `failure` (its bus stopped consuming for good) is stopped cleanly and exits with
 * code 1, so its orchestrator restarts it. A stop that has not finished after
 * `shutdownTimeoutMs` (SHUTDOWN_TIMEOUT_MS; say a pool ending against a database that went
 * silent) exits 1 with a line naming the step it waited on: every effect is idempotent and every
 * message redelivered, so cutting it short loses nothing, and the line is worth more than the
 * orchestrator's SIGKILL. The same signal a second time ends the process at once (Node's
 * default: each handler is `once`). A Node.js older than the one required is refused first.
 */
export function runService(name: string, start: () => Promise<RunningService>): void {
  requireNodeVersion(name);
  guardProcess(name);
  let service: RunningService | undefined;
  let stopping = false;
  const stop = (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    // Still starting (e.g. waiting for the database): nothing has been taken on yet that a clean stop would finish.
    if (!service) {
      logLine('info', name, `${reason} while starting, exiting`);
      process.exit(exitCode);
    }
    logLine(exitCode === 0 ? 'info' : 'fatal', name, `${reason}, shutting down`);
    const running = service;
    setTimeout(() => {
      const step = running.stopStep?.() ?? 'unknown';
      logLine(
        'fatal',
        name,
        `shutdown did not finish within ${running.shutdownTimeoutMs} ms (still on: ${step}); exiting`,
        { step, shutdownTimeoutMs: running.shutdownTimeoutMs },
      );
      process.exit(1);
    }, running.shutdownTimeoutMs).unref();
    running.stop().then(
      () => process.exit(exitCode),
      (err: unknown) => {
        writeStderr(`${name}: error during shutdown: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('received SIGTERM'));
  process.once('SIGINT', () => stop('received SIGINT'));
  // Promise.resolve().then also catches a synchronous throw (loadConfig runs inside start).
  Promise.resolve()
    .then(start)
    .then(
      (started) => {
        service = started;
        void started.failure?.then((err) => stop(`failed: ${err.message}`, 1));
      },
      (err: unknown) => {
        if (err instanceof ConfigError) {
          writeStderr(`${name}: ${err.message}\n`);
        } else if (isMisconfiguration(err)) {
          writeStderr(`${name}: a setting is wrong (not retrying): ${errorText(err)}\n`);
        } else {
          writeStderr(`${name}: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        }
        process.exit(1);
      },
    );
}
