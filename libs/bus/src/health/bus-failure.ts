import type { BusTransport } from '../transport/bus-transport.interface';

/**
 * Ties a transport's failure for good (BusTransport.failure) to the service: pass `onFailure` to
 * createTransport, return `failure` from the service's start so runService exits on it.
 */
export function watchBusFailure(): { onFailure: (error: Error) => void; failure: Promise<Error> } {
  let onFailure: (error: Error) => void = () => undefined;
  const failure = new Promise<Error>((resolve) => {
    onFailure = resolve;
  });
  return { onFailure, failure };
}

/** Readiness: not ready once a subscription has stopped consuming for good. */
export function busReadinessCheck(transport: BusTransport): { name: string; check(): Promise<void> } {
  return {
    name: 'bus',
    check: async () => {
      const failure = transport.failure();
      if (failure) throw failure;
    },
  };
}
