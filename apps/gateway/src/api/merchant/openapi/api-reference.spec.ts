import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@pay/platform';
import Fastify from 'fastify';
import { API_REFERENCE_CSP, API_REFERENCE_PATH, registerApiReference } from './api-reference';

describe('the API reference page (/docs/reference)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-reference-'));

  it('serves the built page as it is, as HTML that may load nothing from elsewhere', async () => {
    const file = join(dir, 'index.html');
    writeFileSync(file, '<!DOCTYPE html><title>Merchant API reference</title><script>/* redoc */</script>');
    const app = Fastify();
    registerApiReference(app, file, createLogger('spec', 'fatal'));
    const res = await app.inject({ method: 'GET', url: API_REFERENCE_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<!DOCTYPE html><title>Merchant API reference</title><script>/* redoc */</script>');
    expect(res.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': API_REFERENCE_CSP,
      'x-content-type-options': 'nosniff',
    });
    expect(API_REFERENCE_CSP).toContain("default-src 'none'");
    expect(API_REFERENCE_CSP).not.toMatch(/https?:/);
    await app.close();
  });

  it('without a built page: no route (the gateway runs on), and says so once at start-up', async () => {
    const warnings: string[] = [];
    const logger = { ...createLogger('spec', 'fatal'), warn: (_o: object, msg: string) => warnings.push(msg) };
    const app = Fastify();
    registerApiReference(app, join(dir, 'missing.html'), logger as never);
    expect((await app.inject({ method: 'GET', url: API_REFERENCE_PATH })).statusCode).toBe(404);
    expect(warnings).toEqual([expect.stringContaining('npm run build')]);
    await app.close();
  });
});
