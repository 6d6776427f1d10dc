import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

/** The repository's TypeScript sources as a graph of files (paths relative to the root, with `/`). */
export interface ImportGraph {
  files: string[];
  /** file -> the files it imports (type-only imports and re-exports included), in the repository only */
  imports: Map<string, Set<string>>;
}

/** Not ours: written by generators (their own imports are theirs), or build output. */
const SKIPPED = /(^|\/)(node_modules|dist|tmp|coverage|generated)(\/|$)/;
const SOURCE = /\.tsx?$/;

const posix = (path: string) => path.split(sep).join('/');

function sourcesUnder(root: string, dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full).flatMap((name) => {
    const path = posix(join(dir, name));
    if (SKIPPED.test(path)) return [];
    if (statSync(join(root, path)).isDirectory()) return sourcesUnder(root, path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function compilerOptions(root: string): ts.CompilerOptions {
  const file = join(root, 'tsconfig.base.json');
  const { config } = ts.readConfigFile(file, (path) => readFileSync(path, 'utf8'));
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(file)).options;
}

/**
 * Every import of every source file under `dirs`, resolved as the compiler resolves it (relative
 * paths and the @pay/* aliases of tsconfig.base.json); packages from node_modules are left out.
 */
export function buildImportGraph(root: string, dirs: string[]): ImportGraph {
  const options = compilerOptions(root);
  const cache = ts.createModuleResolutionCache(root, (s) => s, options);
  const files = dirs.flatMap((dir) => sourcesUnder(root, dir)).sort();
  const known = new Set(files);
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, join(root, file), options, ts.sys, cache).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = posix(relative(root, resolved.resolvedFileName));
      if (known.has(target)) targets.add(target);
    }
    imports.set(file, targets);
  }
  return { files, imports };
}

/** The import cycles: each a set of files that reach one another (Tarjan's strongly connected components). */
export function importCycles(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** An arrow between two parts of a folder: how many import lines run from one part to the other. */
export interface Arrow {
  from: string;
  to: string;
  imports: number;
}

/**
 * The graph between the parts of a folder (`partOf` names the part of a path relative to it, or
 * undefined to leave the file out): one arrow per pair of parts, counting the imports behind it.
 */
export function partGraph(graph: ImportGraph, folder: string, partOf: (path: string) => string | undefined): Arrow[] {
  const prefix = `${folder}/`;
  const arrows = new Map<string, Arrow>();
  for (const [file, targets] of graph.imports) {
    if (!file.startsWith(prefix)) continue;
    const from = partOf(file.slice(prefix.length));
    for (const target of targets) {
      if (!from || !target.startsWith(prefix)) continue;
      const to = partOf(target.slice(prefix.length));
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      const arrow = arrows.get(key) ?? { from, to, imports: 0 };
      arrow.imports += 1;
      arrows.set(key, arrow);
    }
  }
  return [...arrows.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}
