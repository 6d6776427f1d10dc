import { leavesStaticRoot } from './static-paths';

describe('leavesStaticRoot (the path a wildcard static route matched, as the router decoded it)', () => {
  it.each([
    '..',
    '../package.json',
    'a/../../package.json',
    './index.html',
    'a/./b',
    '..\\package.json',
    'a\\b',
    'swagger-ui.css\u0000.js',
    'a\u001fb',
    '/etc/passwd',
    'a//b',
    '%2e%2e/package.json',
    '%252e%252e/package.json',
    '..%2fpackage.json',
    '%5c',
    '%00',
    '100%',
    '%ff',
    '%2525252e%2525252e',
  ])('refuses %j', (path) => {
    expect(leavesStaticRoot(path)).toBe(true);
  });

  it.each([
    '',
    'index.html',
    'swagger-ui.css',
    'assets/index-Ab3_x9Qz.js',
    'js/',
    '...',
    '.well-known',
    'a..b',
    'a%20b.css',
  ])('lets %j through', (path) => {
    expect(leavesStaticRoot(path)).toBe(false);
  });
});
