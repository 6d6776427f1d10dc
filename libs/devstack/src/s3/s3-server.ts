/**
 * An S3 server a stack stores its recon files in (S3Proxy: the stack's own, or the end-to-end
 * run's). Fault tests take it away and bring it back on the same endpoint.
 */
export interface S3Server {
  readonly endpoint: string;
  /** S3_ENDPOINT and the credentials, for the services */
  readonly env: Record<string, string>;
  readonly running: boolean;
  /** Takes the server away; connections are refused until restart(). */
  stop(): Promise<void>;
  /** Starts again on the same port with the same files (no-op while running). */
  restart(): Promise<void>;
  /** Stops it for good and removes what it owns. */
  close(): Promise<void>;
}
