// Unit tests: pure code, no I/O. `*.spec.ts` beside the code.
module.exports = {
  ...require('./jest.preset'),
  displayName: 'unit',
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
};
