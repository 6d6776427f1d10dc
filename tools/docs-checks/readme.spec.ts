import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const envExample = readFileSync(join(root, '.env.example'), 'utf8');

describe('README', () => {
  it('documents every setting of .env.example in the configuration reference', () => {
    const settings = [...envExample.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(settings.length).toBeGreaterThan(40);
    const missing = settings.filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('documents every error code of the API', () => {
    const source = readFileSync(join(root, 'libs', 'contracts', 'src', 'api', 'error-code.ts'), 'utf8');
    const codes = [...source.matchAll(/= '([A-Z_]+)',/g)].map((m) => m[1]);
    const missing = codes.filter((code) => !readme.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  it('gives the two commands a newcomer copies', () => {
    expect(readme).toContain('bash tools/dev/up.sh');
    expect(readme).toContain('bash tools/test.sh');
    expect(readFileSync(join(root, '.ci', 'run'), 'utf8')).toContain('tools/test.sh');
  });
});
