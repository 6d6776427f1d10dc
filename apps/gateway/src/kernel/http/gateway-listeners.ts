import type { IncomingMessage, Server } from 'node:http';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import { sendRouteNotFound } from './route-not-found';
import { createLimitedServer, type ServerLimits } from './server-limits';

/**
 * The gateway listens on two ports with one Fastify router: the public port (merchants, through
 * the ingress) and the internal port (the acquirer's notifications, operators, Prometheus), which
 * no ingress exposes. Requests are marked by the port they arrived on; routes under these
 * prefixes answer on the internal port only.
 */
const INTERNAL_PREFIXES = ['/internal', '/ops', '/metrics', '/console', '/snap'];

const ARRIVED_ON_PUBLIC_PORT = Symbol('arrivedOnPublicPort');
type MarkedRequest = IncomingMessage & { [ARRIVED_ON_PUBLIC_PORT]?: true };

export function isInternalPath(url: string): boolean {
  const path = url.split('?')[0].toLowerCase();
  return INTERNAL_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export interface GatewayListeners {
  /** Fastify's serverFactory: builds the public server Fastify listens on, and the internal one */
  serverFactory: FastifyServerFactory;
  /** The internal port's server (available once Fastify was created with serverFactory) */
  internalServer(): Server;
}

export function createGatewayListeners(limits: ServerLimits): GatewayListeners {
  let internal: Server | undefined;
  return {
    serverFactory: (handler) => {
      // The same routing handler on both servers: only the mark differs.
      internal = createLimitedServer(limits, handler);
      return createLimitedServer(limits, (req, res) => {
        (req as MarkedRequest)[ARRIVED_ON_PUBLIC_PORT] = true;
        handler(req, res);
      });
    },
    internalServer: () => {
      if (!internal) throw new Error('the internal server exists once Fastify is created with serverFactory');
      return internal;
    },
  };
}

/**
 * On the public port, internal routes answer exactly as an unknown route does (sendRouteNotFound).
 * Judged by the route that matched as well as by the path, so no spelling of a URL reaches them.
 * Requests without a mark (fastify.inject) are not refused.
 */
export function refuseInternalRoutesOnPublicPort(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (req, reply) => {
    if (!(req.raw as MarkedRequest)[ARRIVED_ON_PUBLIC_PORT]) return;
    const route = req.routeOptions.url;
    if ((route === undefined || !isInternalPath(route)) && !isInternalPath(req.url)) return;
    return sendRouteNotFound(req, reply);
  });
}
