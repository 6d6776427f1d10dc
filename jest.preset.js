// Shared Jest settings: SWC transpiles TypeScript (type-checking is `npm run typecheck`),
// the @pay/* aliases resolve to library sources, and every test runs in UTC.
process.env.TZ = 'UTC';

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
    // content-disposition 3 (under @fastify/static, for Bull Board) ships only ES modules, which Jest cannot require.
    // So does @apidevtools/json-schema-ref-parser (under openapi-backend, for the OpenAPI contract check).
    // @fastify/cookie loads `cookie` with import(), which Jest's CommonJS runtime refuses: SWC turns it into require().
    '/node_modules/(content-disposition|@apidevtools/json-schema-ref-parser|@fastify/cookie)/.+\\.js$': [
      '@swc/jest',
      { module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [
    '^(?!.*/node_modules/(content-disposition|@apidevtools/json-schema-ref-parser|@fastify/cookie)/).*/node_modules/',
  ],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@pay/(contracts|domain|persistence|bus|bus-service|platform|ledger-core|testing|devstack|bank-rail|snap|merchant-client|backoffice|reconciliation)$':
      '<rootDir>/libs/$1/src/index.ts',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
