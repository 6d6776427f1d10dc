import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { sendRouteNotFound } from '../http/route-not-found';

/** A character no file of a static root has in its name: a backslash, or a control character (NUL among them). */
// eslint-disable-next-line no-control-regex
const FOREIGN_CHARACTER = /[\\\u0000-\u001f\u007f]/;

/** How many times a path is decoded looking for a climb: a path encoded more often names no file of ours. */
const DECODINGS = 3;

/**
 * True when a path under a static root (what a wildcard route's `*` matched, as the router
 * decoded it) could name something outside that root or nothing at all: a `..` or `.` segment,
 * an empty segment (`//`), a backslash, a control character, or undecodable percent-encoding,
 * as written or decoded again (up to DECODINGS times: `%252e%252e` is `..` to a layer that decodes
 * twice).
 */
export function leavesStaticRoot(path: string): boolean {
  let current = path;
  for (let round = 0; round < DECODINGS; round++) {
    if (FOREIGN_CHARACTER.test(current)) return true;
    const segments = current.split('/');
    // The last segment may be empty: `dir/` asks for the directory's index.
    if (segments.some((s, i) => s === '.' || s === '..' || (s === '' && i < segments.length - 1))) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return true;
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return true;
}

/** A wildcard route's guard: the path it matched must stay inside its root. */
const refuseClimbingOut: onRequestHookHandler = async (req: FastifyRequest, reply: FastifyReply) => {
  const rest = (req.params as Record<string, string | undefined>)['*'] ?? '';
  if (leavesStaticRoot(rest)) return sendRouteNotFound(req, reply);
};

/**
 * Every wildcard GET route (a folder served from disk: the Swagger UI at /docs/*, Bull Board's
 * assets at /ops/queues/static/*) answers a path that would climb out of its folder, or names no
 * file, as an unknown route (404 in the envelope) before any file is looked up. Left to
 * @fastify/send, such a path was its 403 error, which the envelope filter knew nothing of: a 500
 * that paged on-call. The web bundles need no guard: they have a route per file (`wildcard: false`).
 * Call before the faces mount: it sees the routes registered after it.
 */
export function refuseClimbingOutOfStaticRoots(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.endsWith('*') || !methods.includes('GET')) return;
    const hooks =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    // A HEAD route Fastify derives from the GET one carries the guard already.
    if (!hooks.includes(refuseClimbingOut)) route.onRequest = [...hooks, refuseClimbingOut];
  });
}
