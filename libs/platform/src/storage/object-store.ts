import { createHash } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { TransientError } from '../faults/fault';
import type { StorageConfig } from './storage.config';

/** How long a connection to the object store may stay silent before the call fails. */
const SOCKET_TIMEOUT_MS = 30_000;

/**
 * One bucket in an S3-compatible store, through the `minio` client.
 *
 * Reconnect story: there is no long-lived connection. Each call takes a pooled keep-alive
 * socket or opens a new one, and a failure (refused, reset, a 5xx) rejects that call only, as a
 * transient fault: the recon job retries, readiness reports it, the next call connects afresh.
 * A socket silent for 30 s is destroyed, so a store that hangs fails the call instead of
 * holding it forever.
 */
export class ObjectStore {
  readonly client: Client;
  /** Signs download URLs for the host merchants reach (the public endpoint, else the endpoint) */
  private readonly publicClient: Client;

  constructor(
    readonly config: StorageConfig,
    socketTimeoutMs = SOCKET_TIMEOUT_MS,
  ) {
    this.client = clientFor(config.endpoint, config, socketTimeoutMs);
    this.publicClient = config.publicEndpoint ? clientFor(config.publicEndpoint, config, socketTimeoutMs) : this.client;
  }

  get bucket(): string {
    return this.config.bucket;
  }

  /** Creates the bucket when it is missing (at start-up). */
  async ensureBucket(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) {
      try {
        await this.client.makeBucket(this.bucket, this.config.region);
      } catch (err) {
        // Another replica created it first.
        if (!(await this.client.bucketExists(this.bucket))) throw err;
      }
    }
  }

  /**
   * Streams an object of unknown size as an S3 multipart upload in parts of `partBytes`: one
   * part uploads while the next is read, so reading and uploading overlap and the export takes
   * about the longer of the two instead of their sum; memory stays flat however large the object
   * (two parts at most). (We drive the parts ourselves: the client's own stream upload buffers
   * 64 MiB parts.)
   */
  async putStream(
    key: string,
    body: Readable,
    contentType: string,
    partBytes = 8 * 1024 * 1024,
  ): Promise<{ parts: number; bytes: number }> {
    const uploadId = await this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': contentType });
    const etags: { part: number; etag: string }[] = [];
    // Two part buffers, filled and uploaded in turn, allocated once: no new part-sized buffer (and
    // no copy of the chunks into one) per part, so the process's memory stays flat.
    const buffers = [Buffer.allocUnsafe(partBytes), Buffer.allocUnsafe(partBytes)];
    let filling = buffers[0];
    let buffered = 0;
    let bytes = 0;
    let parts = 0;
    /** The part being uploaded, if any; its failure surfaces at the next flush or at the end. */
    let uploading: Promise<void> = Promise.resolve();
    const flush = async () => {
      const payload = filling.subarray(0, buffered);
      const part = ++parts;
      await uploading; // one upload at a time: the other buffer is free once it is done
      filling = buffers[part % 2];
      buffered = 0;
      uploading = this.client
        .uploadPart(
          {
            bucketName: this.bucket,
            objectName: key,
            uploadID: uploadId,
            partNumber: part,
            headers: { 'Content-Length': payload.length, 'Content-MD5': md5(payload) },
          },
          payload,
        )
        .then(({ etag }) => void etags.push({ part, etag }));
      uploading.catch(() => undefined); // awaited below; not unhandled meanwhile
    };
    try {
      for await (const chunk of body) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        bytes += buf.length;
        for (let at = 0; at < buf.length;) {
          const n = buf.copy(filling, buffered, at);
          buffered += n;
          at += n;
          if (buffered === partBytes) await flush();
        }
      }
      if (buffered > 0 || parts === 0) await flush();
      await uploading;
      await this.client.completeMultipartUpload(
        this.bucket,
        key,
        uploadId,
        etags.sort((a, b) => a.part - b.part),
      );
      return { parts, bytes };
    } catch (err) {
      await uploading.catch(() => undefined);
      await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      throw err;
    }
  }

  presignGet(key: string, filename: string): Promise<string> {
    return this.publicClient.presignedGetObject(this.bucket, key, this.config.urlTtlSeconds, {
      'response-content-disposition': `attachment; filename="${filename}"`,
    });
  }
}

/** The Content-MD5 of a body: S3 refuses a part whose bytes do not hash to it (BadDigest). */
function md5(payload: Buffer): string {
  return createHash('md5').update(payload).digest('base64');
}

/** An agent whose sockets are destroyed (with a TransientError) after `ms` of silence. */
function silentSocketTimeout(agent: HttpAgent, ms: number): HttpAgent {
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const socket = create(options, callback);
    if (socket instanceof Socket)
      socket.setTimeout(ms, () => socket.destroy(new TransientError(`object storage did not answer within ${ms} ms`)));
    return socket;
  };
  return agent;
}

function clientFor(endpoint: string, config: StorageConfig, socketTimeoutMs: number): Client {
  const url = new URL(endpoint);
  const https = url.protocol === 'https:';
  const client = new Client({
    transportAgent: silentSocketTimeout(
      https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
      socketTimeoutMs,
    ),
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    useSSL: url.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region,
    pathStyle: true,
  });
  // Bodies go up as UNSIGNED-PAYLOAD on http too, as the client already does on https: each part
  // carries a Content-MD5 instead, which the signature covers and S3 checks against the bytes it
  // received. The signed SHA-256 of every body (the client's default on http) made the store hash
  // each part a second time; S3Proxy spent 1.2 s of the recon export's 2 cores on it
  // (docs/decisions/0009).
  client.enableSHA256 = false;
  return client;
}
