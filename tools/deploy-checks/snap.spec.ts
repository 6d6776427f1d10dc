/**
 * The SNAP bank rail in the deployment files: every environment pays out over SNAP
 * (RAIL_PROVIDER=snap); only the dev overlay and the compose stack run the SNAP provider
 * simulator, marked RAIL_SIMULATOR=true; production never is; the SNAP_*_FILE settings name files
 * of the Secret or volume mounted where they point.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { IConfigMap } from 'kubernetes-models/v1';
import { parse } from 'yaml';
import { SNAP_KEY_FILES } from '../snap/snap-keys';
import { composeConfig, type K8sObject, ofKind, render } from './manifests';
import { ROOT } from './run-tool';

const RAIL_SERVICES = ['gateway', 'payout'];
const SIMULATOR = 'snap-simulator';
const FILE_SETTINGS = [
  'SNAP_CLIENT_SECRET_FILE',
  'SNAP_PRIVATE_KEY_FILE',
  'SNAP_PROVIDER_PUBLIC_KEY_FILE',
  'SNAP_BANK_CODES_FILE',
];

const configOf = (objects: K8sObject[]): Record<string, string> =>
  ofKind<IConfigMap>(objects, 'ConfigMap').find((c) => c.metadata?.name?.startsWith('payments-config'))?.data ?? {};
const deployment = (objects: K8sObject[], name: string) =>
  ofKind<IDeployment>(objects, 'Deployment').find((d) => d.metadata?.name === name);

describe.each(['dev', 'staging', 'prod'])('overlay %s: the SNAP rail', (overlay) => {
  let objects: K8sObject[];
  let config: Record<string, string>;
  beforeAll(() => {
    objects = render(overlay);
    config = configOf(objects);
  });

  it('pays out over SNAP, and runs the simulator exactly where RAIL_SIMULATOR=true, never in production', () => {
    expect(config['RAIL_PROVIDER']).toBe('snap');
    const simulated = config['RAIL_SIMULATOR'] === 'true';
    expect({ simulated, simulator: deployment(objects, SIMULATOR) !== undefined }).toEqual({
      simulated,
      simulator: simulated,
    });
    if (overlay === 'prod' || config['NODE_ENV'] === 'production') expect(simulated).toBe(false);
    // The simulator's address only beside the simulator; a bank's over HTTPS
    if (simulated) expect(config['SNAP_BASE_URL']).toBe('http://snap-simulator:4010/snap');
    else expect(new URL(config['SNAP_BASE_URL'] ?? '').protocol).toBe('https:');
  });

  it('mounts payments-snap read-only on gateway and payout where every SNAP_*_FILE points', () => {
    for (const name of RAIL_SERVICES) {
      const spec = deployment(objects, name)?.spec?.template.spec;
      const volume = spec?.volumes?.find((v) => v.secret?.secretName === 'payments-snap');
      const mount = spec?.containers[0]?.volumeMounts?.find((m) => m.name === volume?.name);
      expect({ name, mountPath: mount?.mountPath, readOnly: mount?.readOnly }).toEqual({
        name,
        mountPath: '/etc/payments/snap',
        readOnly: true,
      });
      const files = (volume?.secret?.items ?? []).map((item) => posix.join(mount?.mountPath ?? '', item.path));
      const unmounted = FILE_SETTINGS.filter((s) => config[s] && !files.includes(config[s]));
      expect({ name, unmounted }).toEqual({ name, unmounted: [] });
    }
    expect(config['SNAP_PRIVATE_KEY_FILE']).toBeTruthy();
  });

  it('lets only gateway and payout reach the simulator, and the simulator only Postgres and the gateway', () => {
    const policies = ofKind<INetworkPolicy>(objects, 'NetworkPolicy');
    const selects = (p: INetworkPolicy, name: string) =>
      p.spec?.podSelector.matchLabels?.['app.kubernetes.io/name'] === name ||
      (p.spec?.podSelector.matchExpressions ?? []).some((e) => e.operator === 'In' && e.values?.includes(name));
    if (!deployment(objects, SIMULATOR)) {
      // No simulator here: nothing opens a way to one
      expect(policies.filter((p) => JSON.stringify(p.spec).includes(SIMULATOR)).map((p) => p.metadata?.name)).toEqual(
        [],
      );
      return;
    }
    const inbound = policies
      .filter((p) => selects(p, SIMULATOR))
      .flatMap((p) => p.spec?.ingress ?? [])
      .flatMap((r) => r.from ?? []);
    expect(inbound.map((f) => f.podSelector?.matchExpressions?.[0]?.values)).toEqual([RAIL_SERVICES]);
    expect(inbound.every((f) => !f.namespaceSelector && !f.ipBlock)).toBe(true);
    const outbound = policies
      .filter((p) => selects(p, SIMULATOR) && Object.keys(p.spec?.podSelector.matchLabels ?? {}).length > 0)
      .flatMap((p) => p.spec?.egress ?? [])
      .flatMap((r) => (r.ports ?? []).map((port) => port.port));
    expect(outbound.sort()).toEqual([3001, 5432]);
    for (const name of RAIL_SERVICES)
      expect(
        policies
          .filter((p) => selects(p, name))
          .flatMap((p) => p.spec?.egress ?? [])
          .some((r) => r.to?.some((t) => t.podSelector?.matchLabels?.['app.kubernetes.io/name'] === SIMULATOR)),
      ).toBe(true);
  });
});

describe('docker-compose: the SNAP rail against the simulator', () => {
  let services: ReturnType<typeof composeConfig>;
  beforeAll(() => {
    services = composeConfig(['docker-compose.yml'], '.env.compose');
  });
  const env = (name: string) => services[name]?.environment ?? {};

  it('writes the keys once, starts the simulator on them, then gateway and payout', () => {
    expect(services['snap-keys']?.command).toEqual(['node', 'dist/tools/snap/make-keys.js', '/snap']);
    expect(services[SIMULATOR]?.command).toEqual(['node', 'dist/apps/snap-simulator/src/main.js']);
    expect(services[SIMULATOR]?.depends_on?.['snap-keys']?.condition).toBe('service_completed_successfully');
    for (const name of RAIL_SERVICES) {
      expect({ name, condition: services[name]?.depends_on?.[SIMULATOR]?.condition }).toEqual({
        name,
        condition: 'service_healthy',
      });
      expect({ name, provider: env(name)['RAIL_PROVIDER'], simulator: env(name)['RAIL_SIMULATOR'] }).toEqual({
        name,
        provider: 'snap',
        simulator: 'true',
      });
    }
  });

  it('gives both sides the files make-keys writes, the same client and the simulator its own address', () => {
    const rail = env('payout');
    const sim = env(SIMULATOR);
    const files = [
      ...FILE_SETTINGS.map((s) => rail[s]),
      sim['SNAP_SIM_CLIENT_SECRET_FILE'],
      sim['SNAP_SIM_CLIENT_PUBLIC_KEY_FILE'],
      sim['SNAP_SIM_PRIVATE_KEY_FILE'],
    ].filter((f) => f);
    expect(files.filter((f) => !SNAP_KEY_FILES.some((name) => f === `/snap/${name}`))).toEqual([]);
    expect(rail['SNAP_CLIENT_SECRET_FILE']).toBe(sim['SNAP_SIM_CLIENT_SECRET_FILE']);
    expect(sim['SNAP_SIM_CLIENT_ID']).toBe(rail['SNAP_CLIENT_ID']);
    expect(sim['SNAP_SIM_SOURCE_ACCOUNT_NO']).toBe(rail['SNAP_SOURCE_ACCOUNT_NO']);
    expect(rail['SNAP_BASE_URL']).toBe(
      `http://${SIMULATOR}:${String(sim['SNAP_SIM_PORT'])}${String(sim['SNAP_SIM_PATH_PREFIX'])}`,
    );
  });

  it('mounts the keys read-only where they are only read, and publishes no simulator port', () => {
    const raw = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { volumes?: string[]; ports?: string[] }>;
    };
    expect(raw.services['snap-keys']?.volumes).toEqual(['snap-keys:/snap']);
    for (const name of [...RAIL_SERVICES, SIMULATOR])
      expect({ name, volumes: raw.services[name]?.volumes }).toEqual({ name, volumes: ['snap-keys:/snap:ro'] });
    expect(raw.services[SIMULATOR]?.ports).toBeUndefined();
  });
});
