import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const ioPackages = [
  '@nestjs/*',
  '@prisma/*',
  'pg',
  'ioredis',
  'kafkajs',
  'bullmq',
  'minio',
  'pino',
  'fs',
  'node:fs',
  'net',
  'node:net',
  'http',
  'node:http',
  'child_process',
  'node:child_process',
];

const common = [
  { sourceTag: 'scope:tool', onlyDependOnLibsWithTags: ['scope:lib'] },
  {
    sourceTag: 'scope:e2e',
    onlyDependOnLibsWithTags: [
      'type:contracts',
      'type:domain',
      'type:testing',
      'type:devstack',
      'type:transport',
      'type:data',
      'type:rail',
      'type:protocol',
      'type:client',
      'type:backoffice',
    ],
  },
  { sourceTag: 'scope:lib', onlyDependOnLibsWithTags: ['scope:lib'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: [], bannedExternalImports: ioPackages },
  {
    sourceTag: 'type:contracts',
    onlyDependOnLibsWithTags: ['type:domain'],
    bannedExternalImports: ioPackages.filter((p) => p !== '@nestjs/*'),
  },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'] },
  { sourceTag: 'type:transport', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform'] },
  { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform'] },
  // The start-up every bus service shares: it wires the transport to the database (neither may know the other).
  {
    sourceTag: 'type:service',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform', 'type:transport', 'type:data'],
  },
  {
    sourceTag: 'type:ledger',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform', 'type:data'],
  },
  // SNAP, Bank Indonesia's open API standard: plain TypeScript over Node's crypto and http, nothing of ours.
  { sourceTag: 'type:protocol', onlyDependOnLibsWithTags: [] },
  {
    sourceTag: 'type:rail',
    onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:data', 'type:protocol'],
  },
  // The operator use cases (the ops API, the console and the admin CLI are faces over them).
  {
    sourceTag: 'type:backoffice',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform', 'type:data'],
  },
  {
    sourceTag: 'type:testing',
    onlyDependOnLibsWithTags: [
      'type:domain',
      'type:contracts',
      'type:platform',
      'type:data',
      'type:ledger',
      'type:transport',
      'type:rail',
      'type:protocol',
      'type:backoffice',
    ],
  },
  // The machinery that runs the system locally (processes, brokers, private servers, faults) stands on the fixtures.
  {
    sourceTag: 'type:devstack',
    onlyDependOnLibsWithTags: [
      'type:domain',
      'type:contracts',
      'type:platform',
      'type:data',
      'type:transport',
      'type:rail',
      'type:protocol',
      'type:testing',
    ],
  },
  // The web app runs in a browser: it shares the API contract with the gateway, nothing else.
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
];

// Production code: apps use libs only; only the ledger app may write money (type:ledger),
// and no production code may use the test fixtures or the local stack's machinery. Checked on an
// app's own imports (onlyDependOnLibsWithTags), not with notDependOnLibsWithTags: that one follows
// the project graph, which holds a library's tests' imports too (libs/reconciliation's int spec
// stands on the fixtures, the simulator and the ledger), so an app importing the library was
// refused. No library's production code may import those (the rules of `common` below), so an
// app's own imports are the whole question. A library of a new type is refused until listed here.
const LIB_TYPES = [
  'type:domain',
  'type:contracts',
  'type:platform',
  'type:transport',
  'type:data',
  'type:service',
  'type:ledger',
  'type:protocol',
  'type:rail',
  'type:backoffice',
  'type:client',
  'type:web',
  'type:testing',
  'type:devstack',
];
const libTypesExcept = (...banned) => LIB_TYPES.filter((t) => !banned.includes(t));
const NOT_IN_PRODUCTION = ['type:testing', 'type:devstack'];
const productionConstraints = [
  { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib'] },
  { sourceTag: 'scope:app', onlyDependOnLibsWithTags: libTypesExcept(...NOT_IN_PRODUCTION) },
  { sourceTag: 'app:gateway', onlyDependOnLibsWithTags: libTypesExcept('type:ledger', ...NOT_IN_PRODUCTION) },
  { sourceTag: 'app:payout', onlyDependOnLibsWithTags: libTypesExcept('type:ledger', ...NOT_IN_PRODUCTION) },
  { sourceTag: 'app:workers', onlyDependOnLibsWithTags: libTypesExcept('type:ledger', ...NOT_IN_PRODUCTION) },
  // The merchant client is published on its own: it stands on openapi-fetch alone (its tests may use the platform's signer).
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: [], bannedExternalImports: ioPackages },
  ...common,
];
// Tests may set up state through the ledger and the fixtures.
// Tests: the same layers, but a back-office use case's tests may stand on the fixtures and the local
// stack (a reconciliation is tested against the SNAP simulator's process and the ledger).
const TEST_SUPPORT = ['type:testing', 'type:devstack', 'type:rail', 'type:ledger', 'type:transport', 'type:protocol'];
const testConstraints = [
  { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib'] },
  ...common.map((c) =>
    c.sourceTag === 'type:backoffice'
      ? { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, ...TEST_SUPPORT] }
      : c,
  ),
];

// The gateway's rooms (apps/gateway/src): the kernel below the services, the services below the
// faces, no face importing another. tools/deploy-checks/layering.spec.ts checks the whole import
// graph (and that there is no cycle); these rules say it where the import is written.
const GATEWAY = 'apps/gateway/src';
const GATEWAY_FACES = ['merchant', 'internal', 'ops', 'dashboard', 'console', 'session'];
const ABOVE_SERVICES = ['**/api/*', '**/gateway.module', '**/gateway.app', '**/testing/*'];
const gatewayLayers = [
  {
    files: [`${GATEWAY}/kernel/**/*.ts`],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/services/*', '**/gateway.config', ...ABOVE_SERVICES],
              message: 'the kernel is below the settings, the services and the faces',
            },
          ],
        },
      ],
    },
  },
  {
    files: [`${GATEWAY}/services/**/*.ts`],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ABOVE_SERVICES, message: 'services take commands, never HTTP DTOs: no face is theirs to import' },
          ],
        },
      ],
    },
  },
  ...GATEWAY_FACES.map((face) => ({
    files: [`${GATEWAY}/api/${face}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: GATEWAY_FACES.filter((other) => other !== face).flatMap((other) => [
                `../${other}/*`,
                `../../${other}/*`,
                `**/api/${other}/*`,
              ]),
              message:
                'a face imports no other face: what two faces share belongs in the kernel, the services or libs/backoffice',
            },
          ],
        },
      ],
    },
  })),
];

const boundaries = (depConstraints) => ({
  enforceBuildableLibDependency: false,
  banTransitiveDependencies: false,
  allow: [],
  depConstraints,
});

export default [
  {
    ignores: [
      '**/node_modules',
      '**/dist',
      '**/tmp',
      '**/.nx',
      'libs/persistence/src/generated/**',
      'libs/merchant-client/src/generated/**',
      'coverage',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(productionConstraints)],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='it'][callee.property.name=/^(only|skip)$/]",
          message: 'it.only / it.skip must not be committed',
        },
        {
          selector: "CallExpression[callee.object.name='describe'][callee.property.name=/^(only|skip)$/]",
          message: 'describe.only / describe.skip must not be committed',
        },
      ],
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'domain code is pure: pass values in' }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'inject time; domain code never reads the clock' },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', 'e2e/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(testConstraints)] },
  },
  ...gatewayLayers,
];
