/**
 * What the deployment checks read: the rendered Kubernetes overlays, the compose
 * configuration, env files and the Secret templates.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT, runTool } from './run-tool';

export const kubectl = (args: string[]): string =>
  runTool(
    'kubectl',
    args,
    'see https://kubernetes.io/docs/tasks/tools/ (kubectl ships kustomize as `kubectl kustomize`)',
  );
/** The secrets compose requires from the operator (.env.secrets); any value will do for `config`. */
export const COMPOSE_SECRETS = {
  ACQUIRER_SECRET: 'deploy-check-acquirer-secret-0123456789abcdef',
  ADMIN_TOKEN: 'deploy-check-admin-token-0123456789abcdef',
  MINIO_ROOT_USER: 'deploy-check-recon',
  MINIO_ROOT_PASSWORD: 'deploy-check-minio-password-0123456789abcdef',
};
export const dockerCompose = (args: string[], secrets: Record<string, string> = COMPOSE_SECRETS): string => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(name in COMPOSE_SECRETS)));
  return runTool('docker-compose', args, '`apt-get install -y docker-compose`', { ...env, ...secrets });
};

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
}

export function isK8sObject(value: unknown): value is K8sObject {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as Record<string, unknown>;
  const meta = o['metadata'];
  return (
    typeof o['apiVersion'] === 'string' &&
    typeof o['kind'] === 'string' &&
    typeof meta === 'object' &&
    meta !== null &&
    typeof (meta as Record<string, unknown>)['name'] === 'string'
  );
}

export function render(overlay: string): K8sObject[] {
  const out = kubectl(['kustomize', join('deploy', 'overlays', overlay)]);
  return parseAllDocuments(out).map((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`${overlay}: YAML document ${i}: ${doc.errors[0].message}`);
    const value: unknown = doc.toJS();
    if (!isK8sObject(value)) throw new Error(`${overlay}: document ${i} is not a Kubernetes object`);
    return value;
  });
}

export const ofKind = <T>(objects: K8sObject[], kind: string): T[] =>
  objects.filter((o) => o.kind === kind).map((o) => o as unknown as T);

/** Problem with an image reference, or undefined when it is pinned. */
export function imageProblem(image: string | undefined): string | undefined {
  if (!image) return 'no image';
  if (image.includes('@sha256:')) return undefined;
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  if (colon < 0) return `image ${image} has no tag`;
  if (lastSegment.slice(colon + 1) === 'latest') return `image ${image} uses :latest`;
  return undefined;
}

export const matches = (
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
): boolean => selector !== undefined && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** Names of the lines `NAME=...` of an env file. */
export function envFileNames(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

export function envFileValues(path: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) values.set(m[1], m[2]);
  }
  return values;
}

export interface ComposeService {
  image?: string;
  environment?: Record<string, string | number | boolean | null>;
  build?: { target?: string };
  depends_on?: Record<string, { condition?: string }>;
  command?: string[];
}

export function composeConfig(files: string[], envFile?: string): Record<string, ComposeService> {
  const args = [...(envFile ? ['--env-file', envFile] : []), ...files.flatMap((f) => ['-f', f])];
  dockerCompose([...args, 'config', '-q']);
  const config: unknown = parse(dockerCompose([...args, 'config']));
  const services = (config as { services?: Record<string, ComposeService> }).services;
  if (!services) throw new Error(`docker-compose config (${files.join(', ')}) printed no services`);
  return services;
}

/**
 * The Secrets documented by deploy/base/*.template.yaml (never applied): name -> keys. Every
 * Secret a Deployment reads must be there, with every key it reads.
 */
export function secretTemplates(): Map<string, string[]> {
  const dir = join(ROOT, 'deploy', 'base');
  const secrets = new Map<string, string[]>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.template.yaml')))
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const value = doc.toJS() as { kind?: string; metadata?: { name?: string }; stringData?: Record<string, string> };
      if (value?.kind === 'Secret' && value.metadata?.name)
        secrets.set(value.metadata.name, Object.keys(value.stringData ?? {}));
    }
  return secrets;
}
