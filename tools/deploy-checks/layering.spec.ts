/**
 * The import graph as the architecture wants it, part of the unit suite: no import cycle anywhere
 * in the repository, and the gateway's rooms (docs: apps/gateway/src, "faces over services")
 * import only downwards: kernel < settings < services < faces < the app's module < the app <
 * what builds an app (testing/, openapi/) and its entry point and app-wide specs. A face imports no
 * other face. Integration specs count: they live beside the code they test, and the arrows they
 * add from a room up to testing/ (which builds the whole app) are the only ones allowed, at most
 * MAX_ARROWS_UP of them.
 */
import { join } from 'node:path';
import { type Arrow, buildImportGraph, importCycles, partGraph } from './import-graph';

const ROOT = join(__dirname, '..', '..');
const GATEWAY = 'apps/gateway/src';
const FACES = ['merchant', 'internal', 'ops', 'dashboard', 'console', 'session'];
const MAX_ARROWS_UP = 14;

/** The room of a path under apps/gateway/src: a top-level file, a top-level folder, or a face (api/<face>). */
function roomOf(path: string): string {
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
const layerOf = (room: string): number | undefined => LAYER[room] ?? (/\.(int-)?spec\.ts$/.test(room) ? 8 : undefined);

const runsUp = (a: Arrow): boolean => {
  const from = layerOf(a.from) as number;
  const to = layerOf(a.to) as number;
  return from < to || (from === to && a.from.startsWith('api/') && a.to.startsWith('api/'));
};

const show = (arrows: Arrow[]) => arrows.map((a) => `${a.from} -> ${a.to} (${a.imports} imports)`);

describe('the import graph', () => {
  const graph = buildImportGraph(ROOT, ['apps', 'libs', 'tools', 'e2e', 'prisma']);
  const arrows = partGraph(graph, GATEWAY, roomOf);

  it('has no import cycle anywhere in the repository', () => {
    expect(importCycles(graph.imports)).toEqual([]);
  });

  it('knows the layer of every room of the gateway (a new folder or top-level file is placed here)', () => {
    const rooms = new Set(
      graph.files.filter((f) => f.startsWith(`${GATEWAY}/`)).map((f) => roomOf(f.slice(GATEWAY.length + 1))),
    );
    expect([...rooms].filter((room) => layerOf(room) === undefined)).toEqual([]);
  });

  it("keeps the gateway's kernel below the services and the faces, and the services below the faces", () => {
    const from = (room: string) => arrows.filter((a) => a.from === room && runsUp(a) && a.to !== 'testing');
    expect(show(from('kernel'))).toEqual([]);
    expect(show(from('services'))).toEqual([]);
  });

  it("keeps the kernel's own folders free of circles (auth above rate limiting, not beside it)", () => {
    const kernelFolder = (path: string) => {
      const [first, second, third] = path.split('/');
      if (second === undefined) return undefined;
      return first === 'auth' && third !== undefined ? `auth/${second}` : first;
    };
    const edges = new Map<string, Set<string>>();
    for (const a of partGraph(graph, `${GATEWAY}/kernel`, kernelFolder))
      edges.set(a.from, (edges.get(a.from) ?? new Set()).add(a.to));
    expect(importCycles(edges)).toEqual([]);
  });

  it('lets no face import another (the dashboard and the console nothing of ops, ops nothing of them)', () => {
    expect(show(arrows.filter((a) => a.from.startsWith('api/') && a.to.startsWith('api/')))).toEqual([]);
  });

  it(`has no arrow up but the specs' to testing/, at most ${MAX_ARROWS_UP}`, () => {
    const up = arrows.filter(runsUp);
    expect(show(up.filter((a) => a.to !== 'testing'))).toEqual([]);
    expect(up.length).toBeLessThanOrEqual(MAX_ARROWS_UP);
    const testing = `${GATEWAY}/testing/`;
    const fromCode = [...graph.imports]
      .filter(([file, targets]) => file.startsWith(`${GATEWAY}/`) && [...targets].some((t) => t.startsWith(testing)))
      .map(([file]) => file)
      .filter((file) => !/\.(int-)?spec\.ts$/.test(file) && !file.startsWith(testing));
    expect(fromCode).toEqual([]);
  });
});
