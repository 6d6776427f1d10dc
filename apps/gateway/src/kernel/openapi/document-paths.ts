import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The gateway's controllers serve two documents: the merchant API (the public port) and the
 * operations API (the internal port). Swagger scans them all; each document keeps the paths
 * under its prefixes and the component schemas those paths reach ($ref, transitively), in
 * their original order.
 */
export function keepPaths(document: OpenAPIObject, prefixes: readonly string[]): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => prefixes.some((p) => path.startsWith(p))),
  );
  const schemas = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const name =
        key === '$ref' && typeof value === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1] : undefined;
      if (name && !reached.has(name)) {
        reached.add(name);
        visit(schemas[name]);
      } else visit(value);
    }
  };
  visit(paths);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
  return { ...document, paths, components: { ...document.components, schemas: kept } };
}
