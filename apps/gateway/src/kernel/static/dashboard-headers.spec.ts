import { cacheControlFor, DASHBOARD_CSP, IMMUTABLE, REVALIDATE } from './dashboard-headers';

describe('dashboard page headers', () => {
  it.each([
    ['/dashboard/assets/index-B3x_9aQz.js', IMMUTABLE],
    ['/console/assets/vendor-mantine-0a1B2c3D4e.css?v=1', IMMUTABLE],
    ['/dashboard/', REVALIDATE],
    ['/dashboard/index.html', REVALIDATE],
    ['/dashboard/favicon.svg', REVALIDATE],
    ['/dashboard/assets/logo.svg', REVALIDATE],
  ])('%s: %s', (url, expected) => {
    expect(cacheControlFor(url)).toBe(expected);
  });

  it('lets the pages load only their own code, never be framed, and submit forms only to themselves', () => {
    expect(DASHBOARD_CSP).toBe(
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
  });
});
