/**
 * The import graph as the architecture wants it, part of the unit suite: no import cycle anywhere
 * in the repository, and the gateway's rooms (docs: apps/gateway/src, "faces over services")
 * import only downwards: kernel < settings < services < faces < the app's module < the app <
 * what builds an app (testing/, openapi/) and its entry point and app-wide specs. A face imports no
 * other face. Integration specs count: they live beside the code they test, and the arrows they
 * add from a room up to testing/ (which builds the whole app) are the only ones allowed, at most
 * MAX_ARROWS_UP of them.
 */
import { importCycles, partGraph } from './import-graph';
import { GATEWAY, gatewayGraph, layerOf, MAX_ARROWS_UP, roomOf, runsUp, show } from './layering';

describe('the import graph', () => {
  const { graph, arrows } = gatewayGraph();

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
