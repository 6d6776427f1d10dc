import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { positiveInt } from '@pay/platform';
import { z } from 'zod';

/**
 * How long and how much a client may hold the gateway's listeners (both ports). Without them a
 * client sending headers and then a byte every few seconds kept a connection (and its memory)
 * for as long as it liked.
 */
export const serverLimitsEnvShape = {
  HTTP_REQUEST_TIMEOUT_MS: positiveInt().max(300_000).default(10_000).meta({
    description: 'The whole request (headers and body) must arrive within this; then 408 and the socket is closed',
  }),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt()
    .max(300_000)
    .default(5_000)
    .meta({ description: 'The headers must arrive within this (at most HTTP_REQUEST_TIMEOUT_MS)' }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt().max(600_000).default(72_000).meta({
    description:
      "An idle keep-alive connection is closed after this. Longer than the ingress's own upstream keep-alive (60 s for ingress-nginx), so the proxy closes first and never reuses a connection the gateway is closing (a 502). Fastify's default",
  }),
  HTTP_CONNECTION_TIMEOUT_MS: positiveInt().max(600_000).default(60_000).meta({
    description: 'A socket with no traffic at all for this long is destroyed (also while a response is awaited)',
  }),
  HTTP_MAX_REQUESTS_PER_SOCKET: positiveInt()
    .max(1_000_000)
    .default(1000)
    .meta({ description: 'Requests served on one keep-alive connection before it is closed' }),
  HTTP_MAX_CONNECTIONS: positiveInt()
    .max(1_000_000)
    .default(1024)
    .meta({ description: 'Open connections per listener; further ones are refused at accept' }),
};

type ServerLimitsEnv = z.output<z.ZodObject<typeof serverLimitsEnvShape>>;

export function refineServerLimits(c: ServerLimitsEnv, ctx: z.RefinementCtx): void {
  if (c.HTTP_HEADERS_TIMEOUT_MS > c.HTTP_REQUEST_TIMEOUT_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_MS'],
      message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
    });
  }
}

export interface ServerLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  connectionTimeoutMs: number;
  maxRequestsPerSocket: number;
  maxConnections: number;
}

/** The typed limits of serverLimitsEnvShape (the gateway's `http.limits`). */
export function serverLimitsSection(env: ServerLimitsEnv): ServerLimits {
  return {
    requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeoutMs: env.HTTP_CONNECTION_TIMEOUT_MS,
    maxRequestsPerSocket: env.HTTP_MAX_REQUESTS_PER_SOCKET,
    maxConnections: env.HTTP_MAX_CONNECTIONS,
  };
}

/** An HTTP server with the limits applied (Fastify applies none to a server its serverFactory returns). */
export function createLimitedServer(
  limits: ServerLimits,
  handler: RequestListener<typeof IncomingMessage, typeof ServerResponse>,
): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node looks for expired requests only this often (30 s by default): a 10 s request
      // timeout would otherwise let a slow request live up to 40 s.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2))),
    },
    handler,
  );
  server.setTimeout(limits.connectionTimeoutMs);
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  server.maxConnections = limits.maxConnections;
  return server;
}
