/**
 * The gateway's rooms and their layers (docs/architecture.md, "faces over services"): lower imports
 * nothing higher. Used by layering.spec.ts (the rules) and layering-report.ts (the figures).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Arrow, buildImportGraph, partGraph } from './import-graph';

/** The repository's root: the nearest folder above this file with nx.json (from the sources or from dist/). */
function repositoryRoot(from: string): string {
  if (existsSync(join(from, 'nx.json'))) return from;
  if (dirname(from) === from) throw new Error('no nx.json above tools/deploy-checks');
  return repositoryRoot(dirname(from));
}

export const ROOT = repositoryRoot(__dirname);
export const GATEWAY = 'apps/gateway/src';
const FACES = ['merchant', 'internal', 'ops', 'dashboard', 'console', 'session'];
export const MAX_ARROWS_UP = 14;

/** The room of a path under apps/gateway/src: a top-level file, a top-level folder, or a face (api/<face>). */
export function roomOf(path: string): string {
  const [first, second, ...rest] = path.split('/');
  if (second === undefined) return first;
  return first === 'api' && rest.length > 0 ? `api/${second}` : first;
}

/** Lower imports nothing higher. Faces share a layer and import nothing from each other. */
const LAYER: Record<string, number> = {
  'gateway.tokens.ts': 0,
  kernel: 1,
  'gateway.config.ts': 2,
  services: 3,
  ...Object.fromEntries(FACES.map((face) => [`api/${face}`, 4])),
  'gateway.module.ts': 5,
  'gateway.app.ts': 6,
  testing: 7,
  openapi: 7,
  'main.ts': 8,
};

/** Top-level specs exercise the whole app (fuzzing, input hardening, the request log): they sit on top. */
export const layerOf = (room: string): number | undefined =>
  LAYER[room] ?? (/\.(int-)?spec\.ts$/.test(room) ? 8 : undefined);

export const runsUp = (a: Arrow): boolean => {
  const from = layerOf(a.from) as number;
  const to = layerOf(a.to) as number;
  return from < to || (from === to && a.from.startsWith('api/') && a.to.startsWith('api/'));
};

export const show = (arrows: Arrow[]) => arrows.map((a) => `${a.from} -> ${a.to} (${a.imports} imports)`);

/** The repository's import graph (specs included) and the gateway's arrows between its rooms. */
export function gatewayGraph() {
  const graph = buildImportGraph(ROOT, ['apps', 'libs', 'tools', 'e2e', 'prisma']);
  return { graph, arrows: partGraph(graph, GATEWAY, roomOf) };
}
