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

export interface ServerLimits {
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  HTTP_CONNECTION_TIMEOUT_MS: number;
  HTTP_MAX_REQUESTS_PER_SOCKET: number;
  HTTP_MAX_CONNECTIONS: number;
}

export function refineServerLimits(c: ServerLimits, ctx: z.RefinementCtx): void {
  if (c.HTTP_HEADERS_TIMEOUT_MS > c.HTTP_REQUEST_TIMEOUT_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_MS'],
      message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
    });
  }
}

/** An HTTP server with the limits applied (Fastify applies none to a server its serverFactory returns). */
export function createLimitedServer(
  limits: ServerLimits,
  handler: RequestListener<typeof IncomingMessage, typeof ServerResponse>,
): Server {
  const server = createServer(
    {
      requestTimeout: limits.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeout: limits.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeout: limits.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // Node looks for expired requests only this often (30 s by default): a 10 s request
      // timeout would otherwise let a slow request live up to 40 s.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(limits.HTTP_HEADERS_TIMEOUT_MS / 2))),
    },
    handler,
  );
  server.setTimeout(limits.HTTP_CONNECTION_TIMEOUT_MS);
  server.maxRequestsPerSocket = limits.HTTP_MAX_REQUESTS_PER_SOCKET;
  server.maxConnections = limits.HTTP_MAX_CONNECTIONS;
  return server;
}
