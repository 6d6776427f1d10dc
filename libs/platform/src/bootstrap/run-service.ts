import { ConfigError } from '../config/config';

/**
 * The entry point of every service: starts it, turns a configuration problem into a clear
 * message and exit code 1, and stops it cleanly on SIGTERM/SIGINT (Kubernetes sends SIGTERM).
 */
export function runService(name: string, start: () => Promise<{ stop(): Promise<void> }>): void {
  // Promise.resolve().then also catches a synchronous throw (loadConfig runs inside start).
  Promise.resolve().then(start).then(
    (service) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stderr.write(JSON.stringify({ level: 'info', service: name, msg: `received ${signal}, shutting down` }) + '\n');
        service.stop().then(
          () => process.exit(0),
          (err: unknown) => {
            process.stderr.write(`${name}: error during shutdown: ${String(err)}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    },
    (err: unknown) => {
      if (err instanceof ConfigError) {
        process.stderr.write(`${name}: ${err.message}\n`);
      } else {
        process.stderr.write(`${name}: failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
      }
      process.exit(1);
    },
  );
}
