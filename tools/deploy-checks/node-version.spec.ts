/**
 * One Node.js everywhere (docs/decisions/0018-node-24.md), part of the unit suite. `.nvmrc` is the
 * pin; everything else that names a Node.js version must agree with it: the start-up check's
 * REQUIRED_NODE_VERSION, `engines`, @types/node, the Dockerfile's base image and any node image
 * in the compose files or the Kubernetes manifests. The scripts that run JavaScript go through
 * the pinned node (tools/pinned-node.sh, or ensure_node in the shell scripts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRED_NODE_VERSION } from '@pay/platform';

const ROOT = join(__dirname, '..', '..');
const read = (...path: string[]): string => readFileSync(join(ROOT, ...path), 'utf8');

const pin = read('.nvmrc').trim();
const major = Number(pin.split('.')[0]);
const packageJson = JSON.parse(read('package.json')) as {
  engines?: { node?: string };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const dockerfile = read('Dockerfile');
const dockerImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];

function yamlFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

describe('the Node.js version', () => {
  it('is pinned in .nvmrc to an exact release of an LTS line (even major) no older than 24', () => {
    expect(pin).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major % 2).toBe(0);
    expect(major).toBeGreaterThanOrEqual(24);
  });

  it('is the one the start-up check requires, and what engines and @types/node say', () => {
    expect(REQUIRED_NODE_VERSION).toBe(pin);
    expect(packageJson.engines?.node).toBe(`>=${pin}`);
    expect(packageJson.devDependencies['@types/node']?.split('.')[0]).toBe(String(major));
  });

  it("is the Dockerfile's base image, for every stage", () => {
    expect(dockerImage).toBe(`node:${pin}-bookworm-slim`);
    const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)];
    expect(stages.length).toBeGreaterThan(0);
    const names = stages.map((m) => m[2]);
    expect(stages.map((m) => m[1]).filter((from) => from !== '${NODE_IMAGE}' && !names.includes(from))).toEqual([]);
  });

  it('is the one of every node image in the compose files and the Kubernetes manifests', () => {
    const files = ['docker-compose.yml', 'docker-compose.e2e.yml', ...yamlFiles('deploy')];
    const references = files.flatMap((file) =>
      [...read(file).matchAll(/\bnode:\d[^\s"'}]*/g)].map((m) => ({ file, image: m[0] })),
    );
    expect(references.filter((r) => r.image !== dockerImage)).toEqual([]);
    // The services are built from the Dockerfile; a NODE_IMAGE build argument would override its base.
    expect(files.filter((file) => read(file).includes('NODE_IMAGE'))).toEqual([]);
  });

  it('runs every npm script that starts node or jest through the pinned node', () => {
    const bare = Object.entries(packageJson.scripts).filter(([, command]) => /^(node|jest|npx jest) /.test(command));
    expect(bare).toEqual([]);
    for (const script of ['tools/test.sh', 'tools/dev/up.sh']) {
      const text = read(script);
      // Before anything installs, builds or runs JavaScript.
      expect({
        script,
        ensureNodeFirst:
          text.indexOf('\nensure_node\n') > 0 && text.indexOf('\nensure_node\n') < text.indexOf('\nensure_built'),
      }).toEqual({
        script,
        ensureNodeFirst: true,
      });
    }
  });
});
