/**
 * Deployment files checks (docs/decisions/0004-deployment.md), part of the unit suite.
 *
 * - every Kubernetes overlay renders (`kubectl kustomize`), every object is valid against the
 *   Kubernetes schemas (kubernetes-models) and follows the rules of the platform: pinned
 *   images, resources, probes, non-root read-only containers, bounded HPAs, PDBs where more
 *   than one replica runs, default-deny network policies;
 * - docker-compose.yml (alone and with docker-compose.e2e.yml) is valid (`docker-compose
 *   config`);
 * - every setting of .env.example is set on Kubernetes (ConfigMap or Deployment env / Secret
 *   reference) and in compose, except the few listed below with a reason.
 *
 * Needs `kubectl` and `docker-compose` on PATH: a missing binary fails the test (it is never
 * skipped), with a message saying what to install.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job, type IJob } from 'kubernetes-models/batch/v1';
import { type INetworkPolicy, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { type IPodDisruptionBudget, PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import {
  ConfigMap,
  type IConfigMap,
  type IContainer,
  type IPodSpec,
  Namespace,
  Service,
  ServiceAccount,
} from 'kubernetes-models/v1';
import { parse } from 'yaml';
import { PUBLISHED_STORAGE_CREDENTIALS, SERVICE_NODE_FLAGS } from '@pay/platform';
import { committedValues } from '@pay/testing';
import {
  COMPOSE_SECRETS,
  composeConfig,
  dockerCompose,
  envFileNames,
  envFileValues,
  imageProblem,
  type K8sObject,
  matches,
  ofKind,
  render,
  secretTemplates,
} from './manifests';
import { ROOT } from './run-tool';

const OVERLAYS_DIR = join(ROOT, 'deploy', 'overlays');
const REQUIRED_OVERLAYS = ['dev', 'staging', 'prod'];

/** Settings of .env.example that Kubernetes does not set, and why. */
const NOT_USED_ON_KUBERNETES: Record<string, string> = {
  BUS_REDIS_URL: 'read only by the Redis Streams bus; Kubernetes runs on Kafka (BUS_TRANSPORT=kafka)',
  DASHBOARD_DIR: "the image's default (/app/dist/apps/dashboard, built with the code) is where the bundles are",
};
/** Settings of .env.example that docker-compose.yml does not set, and why. */
const NOT_USED_IN_COMPOSE: Record<string, string> = {
  BUS_REDIS_URL: 'read only by the Redis Streams bus; the compose stack runs on Kafka (BUS_TRANSPORT=kafka)',
  DASHBOARD_DIR: "the image's default (/app/dist/apps/dashboard, built with the code) is where the bundles are",
};
/** Secrets: never in the ConfigMap, always through secretKeyRef (payments-secrets). */
const SECRET_SETTINGS = [
  'DATABASE_URL',
  'REDIS_URL',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'ACQUIRER_SECRET',
  'ACQUIRER_SECRET_PREVIOUS',
  'ADMIN_TOKEN',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
];
/** Per-service settings, set in each Deployment's env (not in the shared ConfigMap). */
const PER_SERVICE_SETTINGS: Record<string, Record<string, string>> = {
  gateway: { GATEWAY_PORT: '3000', GATEWAY_INTERNAL_PORT: '3001' },
  ledger: { OPS_PORT: '9101' },
  payout: { OPS_PORT: '9102' },
  workers: { OPS_PORT: '9103' },
};
/** Deployments that are not payments services (no shared ConfigMap, no payments-secrets), and why. */
const NOT_PAYMENTS_SERVICES: Record<string, string> = {
  'snap-simulator':
    "the SNAP provider simulator (dev overlay only): its own SNAP_SIM_* settings, not the services' config",
};
/** Partitions of ledger.commands.v1: more ledger consumers than this would idle. */
const LEDGER_PARTITIONS = 12;
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10'];
const APP_SERVICES = ['migrate', 'gateway', 'ledger', 'payout', 'workers'];

// --- helpers -----------------------------------------------------------------------------

/** kubernetes-models class per apiVersion/kind: validate() throws on a schema error. */
function validator<T>(Model: new (data: T) => { validate(): void }): (obj: K8sObject) => void {
  return (obj) => new Model(obj as unknown as T).validate();
}
const MODELS: Record<string, (obj: K8sObject) => void> = {
  'v1/Namespace': validator(Namespace),
  'v1/ServiceAccount': validator(ServiceAccount),
  'v1/ConfigMap': validator(ConfigMap),
  'v1/Service': validator(Service),
  'apps/v1/Deployment': validator(Deployment),
  'batch/v1/Job': validator(Job),
  'policy/v1/PodDisruptionBudget': validator(PodDisruptionBudget),
  'autoscaling/v2/HorizontalPodAutoscaler': validator(HorizontalPodAutoscaler),
  'networking.k8s.io/v1/NetworkPolicy': validator(NetworkPolicy),
};

function podSpecs(objects: K8sObject[]): { owner: string; spec: IPodSpec; deployment: boolean }[] {
  const deployments = ofKind<IDeployment>(objects, 'Deployment').map((d) => ({
    owner: `Deployment/${d.metadata?.name}`,
    spec: d.spec?.template.spec,
    deployment: true,
  }));
  const jobs = ofKind<IJob>(objects, 'Job').map((j) => ({
    owner: `Job/${j.metadata?.name}`,
    spec: j.spec?.template.spec,
    deployment: false,
  }));
  return [...deployments, ...jobs].map(({ owner, spec, deployment }) => {
    if (!spec) throw new Error(`${owner} has no pod spec`);
    return { owner, spec, deployment };
  });
}

function containerProblems(owner: string, pod: IPodSpec, c: IContainer, main: boolean, deployment: boolean): string[] {
  const where = `${owner} container ${c.name}`;
  const problems: string[] = [];
  const image = imageProblem(c.image);
  if (image) problems.push(`${where}: ${image}`);
  for (const kind of ['requests', 'limits'] as const) {
    const r = c.resources?.[kind];
    if (!r || r['cpu'] === undefined || r['memory'] === undefined)
      problems.push(`${where}: resources.${kind} needs cpu and memory`);
  }
  if (main && deployment) {
    if (!c.readinessProbe) problems.push(`${where}: no readinessProbe`);
    if (!c.livenessProbe) problems.push(`${where}: no livenessProbe`);
  }
  const runAsNonRoot = c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
  if (runAsNonRoot !== true) problems.push(`${where}: runAsNonRoot is not true`);
  if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
  return problems;
}

const SETTINGS = envFileNames(join(ROOT, '.env.example'));

// --- Kubernetes ----------------------------------------------------------------------------

const overlays = readdirSync(OVERLAYS_DIR).filter((name) => statSync(join(OVERLAYS_DIR, name)).isDirectory());

describe('deploy/overlays', () => {
  it('has the overlays dev, staging and prod', () => {
    expect(overlays).toEqual(expect.arrayContaining(REQUIRED_OVERLAYS));
  });

  describe.each(overlays)('overlay %s', (overlay) => {
    let objects: K8sObject[];
    beforeAll(() => {
      objects = render(overlay);
    });

    it('renders only known kinds, each valid against the Kubernetes schema', () => {
      expect(objects.length).toBeGreaterThan(0);
      for (const obj of objects) {
        const validate = MODELS[`${obj.apiVersion}/${obj.kind}`];
        if (!validate)
          throw new Error(
            `${overlay}: unknown kind ${obj.apiVersion}/${obj.kind} (${obj.metadata.name}): add its model to MODELS`,
          );
        try {
          validate(obj);
        } catch (err) {
          throw new Error(
            `${overlay}: ${obj.kind}/${obj.metadata.name} is invalid: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
    });

    it('pins every image, and every container has resources, probes and a non-root read-only root', () => {
      const problems = podSpecs(objects).flatMap(({ owner, spec, deployment }) => [
        ...(spec.initContainers ?? []).map((c) => containerProblems(owner, spec, c, false, deployment)).flat(),
        ...spec.containers.map((c) => containerProblems(owner, spec, c, true, deployment)).flat(),
      ]);
      expect(problems).toEqual([]);
    });

    it('runs every service with the V8 flags of the local stack (SERVICE_NODE_FLAGS) in its NODE_OPTIONS', () => {
      const deployments = ofKind<IDeployment>(objects, 'Deployment');
      for (const [service, flags] of Object.entries(SERVICE_NODE_FLAGS)) {
        const env =
          deployments.find((d) => d.metadata?.name === service)?.spec?.template.spec?.containers[0]?.env ?? [];
        const options = (env.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '').split(' ');
        expect({ service, missing: flags.filter((f) => !options.includes(f)) }).toEqual({ service, missing: [] });
      }
    });

    it('gives the gateway an internal port (Service port `internal`) for probes and Prometheus, apart from the public `http`', () => {
      const gateway = ofKind<IDeployment>(objects, 'Deployment').find((d) => d.metadata?.name === 'gateway');
      const container = gateway?.spec?.template.spec?.containers[0];
      expect(container?.ports?.map((p) => [p.name, p.containerPort])).toEqual([
        ['http', 3000],
        ['internal', 3001],
      ]);
      expect(gateway?.spec?.template.metadata?.annotations?.['prometheus.io/port']).toBe('3001');
      for (const probe of [container?.startupProbe, container?.livenessProbe, container?.readinessProbe])
        expect(probe?.httpGet?.port).toBe('internal');
      const service = ofKind<{
        metadata?: { name?: string };
        spec?: { ports?: { name?: string; targetPort?: unknown }[] };
      }>(objects, 'Service').find((s) => s.metadata?.name === 'gateway');
      expect(service?.spec?.ports?.map((p) => [p.name, p.targetPort])).toEqual([
        ['http', 'http'],
        ['internal', 'internal'],
      ]);
      // The ingress controller reaches the public port only.
      const fromIngress = ofKind<INetworkPolicy>(objects, 'NetworkPolicy').filter((p) =>
        (p.spec?.ingress ?? []).some((r) =>
          (r.from ?? []).some(
            (f) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx',
          ),
        ),
      );
      expect(
        fromIngress.flatMap((p) => (p.spec?.ingress ?? []).flatMap((r) => (r.ports ?? []).map((port) => port.port))),
      ).toEqual([3000]);
    });

    it('bounds the HPAs (ledger: at most one consumer per partition) and leaves replicas to them', () => {
      const deployments = ofKind<IDeployment>(objects, 'Deployment');
      const hpas = ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler');
      expect(hpas.map((h) => h.spec?.scaleTargetRef.name).sort()).toEqual(['gateway', 'ledger', 'workers']);
      for (const hpa of hpas) {
        const target = deployments.find((d) => d.metadata?.name === hpa.spec?.scaleTargetRef.name);
        expect(target).toBeDefined();
        // A replicas field would fight the HPA on every apply
        expect(target?.spec?.replicas).toBeUndefined();
        expect(hpa.spec?.maxReplicas).toBeGreaterThanOrEqual(hpa.spec?.minReplicas ?? 1);
        if (hpa.spec?.scaleTargetRef.name === 'ledger')
          expect(hpa.spec.maxReplicas).toBeLessThanOrEqual(LEDGER_PARTITIONS);
      }
    });

    it('has a PodDisruptionBudget for every Deployment that runs more than one replica', () => {
      const hpas = ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler');
      const pdbs = ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget');
      const missing = ofKind<IDeployment>(objects, 'Deployment')
        .filter((d) => {
          const hpa = hpas.find((h) => h.spec?.scaleTargetRef.name === d.metadata?.name);
          const replicas = Math.max(d.spec?.replicas ?? 1, hpa?.spec?.maxReplicas ?? 1);
          return replicas > 1;
        })
        .filter((d) => !pdbs.some((p) => matches(p.spec?.selector?.matchLabels, d.spec?.template.metadata?.labels)))
        .map((d) => d.metadata?.name);
      expect(missing).toEqual([]);
    });

    it('denies all traffic by default and keeps webhooks off private ranges', () => {
      const policies = ofKind<INetworkPolicy>(objects, 'NetworkPolicy');
      const defaultDeny = policies.find(
        (p) =>
          Object.keys(p.spec?.podSelector.matchLabels ?? {}).length === 0 &&
          (p.spec?.podSelector.matchExpressions ?? []).length === 0 &&
          (p.spec?.policyTypes ?? []).includes('Ingress') &&
          (p.spec?.policyTypes ?? []).includes('Egress') &&
          !p.spec?.ingress &&
          !p.spec?.egress,
      );
      expect(defaultDeny).toBeDefined();
      for (const p of policies) {
        for (const rule of p.spec?.egress ?? []) {
          for (const peer of rule.to ?? []) {
            if (peer.ipBlock?.cidr === '0.0.0.0/0')
              expect(peer.ipBlock.except).toEqual(expect.arrayContaining(PRIVATE_RANGES));
          }
        }
      }
      // Only the gateway accepts traffic from outside the namespace (other than the monitoring
      // namespace); a peer with a podSelector alone is a pod of this namespace
      const ingressTargets = policies
        .filter((p) =>
          (p.spec?.ingress ?? []).some((r) =>
            (r.from ?? []).some(
              (f) =>
                (f.namespaceSelector !== undefined || f.ipBlock !== undefined) &&
                f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] !== 'monitoring',
            ),
          ),
        )
        .map((p) => p.spec?.podSelector.matchLabels?.['app.kubernetes.io/name']);
      expect([...new Set(ingressTargets)]).toEqual(['gateway']);
    });

    it('sets every setting of .env.example (ConfigMap, Deployment env or Secret reference)', () => {
      const config = ofKind<IConfigMap>(objects, 'ConfigMap').find((c) =>
        c.metadata?.name?.startsWith('payments-config'),
      );
      expect(config).toBeDefined();
      const configKeys = Object.keys(config?.data ?? {});
      const deployments = ofKind<IDeployment>(objects, 'Deployment');
      const envNames = new Set<string>();
      const secretKeys = new Set<string>();
      for (const d of deployments.filter((d) => !((d.metadata?.name ?? '') in NOT_PAYMENTS_SERVICES))) {
        for (const c of d.spec?.template.spec?.containers ?? []) {
          // Every service gets the shared ConfigMap
          expect(c.envFrom?.some((e) => e.configMapRef?.name === config?.metadata?.name)).toBe(true);
          for (const e of c.env ?? []) {
            envNames.add(e.name);
            const ref = e.valueFrom?.secretKeyRef;
            if (ref?.name === 'payments-secrets') secretKeys.add(ref.key);
          }
          for (const [name, value] of Object.entries(PER_SERVICE_SETTINGS[d.metadata?.name ?? ''] ?? {})) {
            expect({ deployment: d.metadata?.name, name, value: c.env?.find((e) => e.name === name)?.value }).toEqual({
              deployment: d.metadata?.name,
              name,
              value,
            });
          }
        }
      }
      const missing = SETTINGS.filter(
        (name) => !(name in NOT_USED_ON_KUBERNETES) && !configKeys.includes(name) && !envNames.has(name),
      );
      expect(missing).toEqual([]);
      // Secrets never sit in the ConfigMap, and every one is read from payments-secrets
      expect(configKeys.filter((k) => SECRET_SETTINGS.includes(k))).toEqual([]);
      expect(SECRET_SETTINGS.filter((k) => !secretKeys.has(k))).toEqual([]);
    });

    it('reads only Secrets, and keys of them, that a template in deploy/base documents', () => {
      const templates = secretTemplates();
      const undocumented = podSpecs(objects).flatMap(({ owner, spec }) => {
        const refs = [...(spec.initContainers ?? []), ...spec.containers].flatMap((c) =>
          (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])),
        );
        const mounted = (spec.volumes ?? []).flatMap((v) =>
          v.secret ? (v.secret.items ?? []).map((item) => ({ name: v.secret?.secretName ?? '', key: item.key })) : [],
        );
        return [...refs, ...mounted]
          .filter(({ name, key }) => !templates.get(name ?? '')?.includes(key))
          .map(({ name, key }) => `${owner}: ${name}/${key}`);
      });
      expect(undocumented).toEqual([]);
    });
  });

  it('lists only real settings as not used on Kubernetes or in compose', () => {
    for (const name of [...Object.keys(NOT_USED_ON_KUBERNETES), ...Object.keys(NOT_USED_IN_COMPOSE)])
      expect(SETTINGS).toContain(name);
  });
});

// --- docker-compose ----------------------------------------------------------------------

describe('docker-compose', () => {
  const composeFile = 'docker-compose.yml';
  const e2eFile = 'docker-compose.e2e.yml';
  const envFile = '.env.compose';

  it.each([
    ['plain', [composeFile], undefined],
    ['with .env.compose', [composeFile], envFile],
    ['with the e2e override', [composeFile, e2eFile], envFile],
  ])('config is valid (%s) and sets every setting of .env.example', (_label, files, env) => {
    const services = composeConfig(files, env);
    const set = new Set(APP_SERVICES.flatMap((name) => Object.keys(services[name]?.environment ?? {})));
    const missing = SETTINGS.filter((name) => !(name in NOT_USED_IN_COMPOSE) && !set.has(name));
    expect(missing).toEqual([]);
    for (const [name, service] of Object.entries(services))
      expect({ name, image: imageProblem(service.image) }).toEqual({ name, image: undefined });
  });

  it('runs every service with the V8 flags of the local stack (SERVICE_NODE_FLAGS)', () => {
    const services = composeConfig([composeFile], envFile);
    for (const [service, flags] of Object.entries(SERVICE_NODE_FLAGS)) {
      expect({ service, command: services[service]?.command }).toEqual({
        service,
        command: ['node', ...flags, `dist/apps/${service}/src/main.js`],
      });
    }
  });

  it('runs the e2e suite from the build stage against the gateway', () => {
    const e2e = composeConfig([composeFile, e2eFile], envFile)['e2e'];
    expect(e2e?.build?.target).toBe('build');
    expect(e2e?.command).toEqual(['npx', 'jest', '-c', 'jest.journeys.config.js']);
    expect(e2e?.depends_on?.['gateway']?.condition).toBe('service_healthy');
    expect(e2e?.environment?.['E2E_BASE_URL']).toBe('http://gateway:3000');
    expect(e2e?.environment?.['E2E_INTERNAL_URL']).toBe('http://gateway:3001');
    expect(e2e?.environment?.['E2E_ADMIN_TOKEN']).toBe(COMPOSE_SECRETS.ADMIN_TOKEN);
  });

  it('stops, naming them, until ACQUIRER_SECRET and ADMIN_TOKEN are given (no published default)', () => {
    const { MINIO_ROOT_USER, MINIO_ROOT_PASSWORD } = COMPOSE_SECRETS;
    expect(() =>
      dockerCompose(['--env-file', envFile, '-f', composeFile, 'config', '-q'], {
        MINIO_ROOT_USER,
        MINIO_ROOT_PASSWORD,
      }),
    ).toThrow(/ACQUIRER_SECRET|ADMIN_TOKEN/);
    const values = envFileValues(join(ROOT, envFile));
    expect(values.has('ACQUIRER_SECRET') || values.has('ADMIN_TOKEN')).toBe(false);
  });

  it("stops, naming them, until MinIO's credentials are given; MinIO and the services get exactly those (no published default)", () => {
    const { MINIO_ROOT_USER: user, MINIO_ROOT_PASSWORD: password, ...others } = COMPOSE_SECRETS;
    for (const missing of ['MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD'])
      expect(() =>
        dockerCompose(['--env-file', envFile, '-f', composeFile, 'config', '-q'], {
          ...others,
          ...(missing === 'MINIO_ROOT_USER' ? { MINIO_ROOT_PASSWORD: password } : { MINIO_ROOT_USER: user }),
        }),
      ).toThrow(new RegExp(missing));
    const values = envFileValues(join(ROOT, envFile));
    expect(['MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD'].filter((name) => values.has(name))).toEqual([]);

    const services = composeConfig([composeFile], envFile);
    for (const name of ['minio', 'minio-init'])
      expect({
        name,
        user: services[name]?.environment?.MINIO_ROOT_USER,
        password: services[name]?.environment?.MINIO_ROOT_PASSWORD,
      }).toEqual({ name, user, password });
    for (const name of ['gateway', 'workers'])
      expect({
        name,
        key: services[name]?.environment?.S3_ACCESS_KEY,
        secret: services[name]?.environment?.S3_SECRET_KEY,
      }).toEqual({ name, key: user, secret: password });
  });

  it('creates the recon bucket private, again on every run, before the workers start', () => {
    const services = composeConfig([composeFile], envFile);
    const init = services['minio-init'];
    const script = (init?.command ?? [])
      .join('\n')
      .split('\n')
      .map((line) => line.trim());
    // `$$` (compose's escape) as docker-compose v1 prints it, or `$` as v2 does
    const at = (command: RegExp) => script.findIndex((line) => command.test(line));
    const made = at(/^mc mb --ignore-existing "local\/\$\$?BUCKET"$/);
    const privated = at(/^mc anonymous set none "local\/\$\$?BUCKET"$/);
    expect({ made: made >= 0, privatedAfter: privated > made }).toEqual({ made: true, privatedAfter: true });
    expect(script.filter((line) => /mc (anonymous set (?!none)|policy )/.test(line))).toEqual([]);
    expect(init?.environment?.BUCKET).toBe(services.workers?.environment?.RECON_BUCKET);
    expect(services.workers?.depends_on?.['minio-init']?.condition).toBe('service_completed_successfully');
  });

  it('writes only object-store credentials the services refuse (published) in the compose files, their env file, .env.example and deploy/', () => {
    const written = committedValues('S3_ACCESS_KEY|S3_SECRET_KEY|MINIO_ROOT_USER|MINIO_ROOT_PASSWORD');
    expect(written.filter(({ value }) => !PUBLISHED_STORAGE_CREDENTIALS.includes(value))).toEqual([]);
  });

  it('publishes the gateway internal port on 127.0.0.1 only', () => {
    const gateway = parse(readFileSync(join(ROOT, composeFile), 'utf8')).services.gateway as { ports: string[] };
    expect(gateway.ports).toContain('127.0.0.1:${GATEWAY_INTERNAL_PUBLISHED_PORT:-3001}:3001');
    expect(gateway.ports.filter((p) => p.endsWith(':3001') && !p.startsWith('127.0.0.1:'))).toEqual([]);
  });

  it('.env.compose matches the ${VAR:-default} fallbacks of the compose files', () => {
    expect(existsSync(join(ROOT, envFile))).toBe(true);
    const values = envFileValues(join(ROOT, envFile));
    const fallbacks = new Map<string, string>();
    for (const file of [composeFile, e2eFile]) {
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/\$\{([A-Z][A-Z0-9_]*):-([^}]*)\}/g))
        fallbacks.set(m[1], m[2]);
    }
    // Every value of .env.compose is used, with the same default, so plain `up` behaves the same
    const differing = [...values].filter(([name, value]) => fallbacks.get(name) !== value).map(([name]) => name);
    expect(differing).toEqual([]);
  });
});
