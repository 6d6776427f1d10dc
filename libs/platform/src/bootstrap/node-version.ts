/**
 * The Node.js version this code is built, tested and shipped on. `.nvmrc` is the pin (nvm, fnm
 * and tools/lib/node.sh read it); this copy exists because the Docker image carries no `.nvmrc`,
 * and tools/deploy-checks/node-version.spec.ts fails when it, `engines` or the Dockerfile's base
 * image disagree with the pin.
 */
export const REQUIRED_NODE_VERSION = '24.21.0';

function parts(version: string): [number, number, number] {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) throw new Error(`not a Node.js version: ${version}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Whether version a is older than version b (both `x.y.z`, with or without a leading `v`). */
export function isOlderNode(a: string, b: string): boolean {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/** The refusal to print when `found` is older than `required`, or undefined when it is recent enough. */
export function nodeVersionProblem(found: string, required = REQUIRED_NODE_VERSION): string | undefined {
  if (!isOlderNode(found, required)) return undefined;
  return (
    `Node.js ${found} is too old: this project requires Node.js ${required} or newer (the version in .nvmrc). ` +
    'Run `nvm install` (or `fnm use`) in the checkout, or let tools/test.sh and tools/dev/up.sh install it into .local/node.'
  );
}

/**
 * Refuses to run on a Node.js older than the one required: exit code 1 and one line naming the
 * version found and the one required. Called first by every service (runService), the admin CLI,
 * the benchmarks, chaos and the local runner, so an old runtime stops before it connects to
 * anything rather than failing later in a way that names neither version.
 */
export function requireNodeVersion(program: string): void {
  const problem = nodeVersionProblem(process.versions.node);
  if (!problem) return;
  process.stderr.write(`${program}: ${problem}\n`);
  process.exit(1);
}
