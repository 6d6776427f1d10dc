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
      'type:transport',
      'type:data',
      'type:rail',
      'type:client',
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
  { sourceTag: 'type:rail', onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:data'] },
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
    ],
  },
  // The web app runs in a browser: it shares the API contract with the gateway, nothing else.
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
];

// Production code: apps use libs only; only the ledger app may write money (type:ledger),
// and no production code may use the test fixtures.
const productionConstraints = [
  { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib'], notDependOnLibsWithTags: ['type:testing'] },
  { sourceTag: 'app:gateway', notDependOnLibsWithTags: ['type:ledger'] },
  { sourceTag: 'app:payout', notDependOnLibsWithTags: ['type:ledger'] },
  { sourceTag: 'app:workers', notDependOnLibsWithTags: ['type:ledger'] },
  // The merchant client is published on its own: it stands on openapi-fetch alone (its tests may use the platform's signer).
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: [], bannedExternalImports: ioPackages },
  ...common,
];
// Tests may set up state through the ledger and the fixtures.
const testConstraints = [{ sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['scope:lib'] }, ...common];

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
];
