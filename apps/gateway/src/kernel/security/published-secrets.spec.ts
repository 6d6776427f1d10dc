import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLISHED_SECRETS } from './published-secrets';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');

function yamlFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every value given to ACQUIRER_SECRET*, ADMIN_TOKEN* or E2E_ADMIN_TOKEN in a file: literal, or the default of `${VAR:-default}`. */
function secretValues(text: string): string[] {
  return [...text.matchAll(/^[ \t]*-?[ \t]*(?:E2E_)?(?:ACQUIRER_SECRET\w*|ADMIN_TOKEN\w*)[ \t]*[:=][ \t]*(.*)$/gm)]
    .map(([, rest]) => {
      const substituted = /\$\{\w+(:?-)?([^}]*)\}/.exec(rest);
      if (substituted) return substituted[1] ? substituted[2] : '';
      return rest
        .replace(/\s+#.*$/, '')
        .trim()
        .replace(/^["']|["']$/g, '');
    })
    .filter((v) => v !== '');
}

describe('published secrets', () => {
  const files = [
    'docker-compose.yml',
    'docker-compose.e2e.yml',
    '.env.compose',
    '.env.example',
    ...yamlFiles('deploy'),
  ];

  it.each(files)('every secret value in %s is refused by the gateway (listed in PUBLISHED_SECRETS)', (file) => {
    for (const value of secretValues(readFileSync(join(ROOT, file), 'utf8')))
      expect(PUBLISHED_SECRETS).toContain(value);
  });

  it('finds values in the forms the files use', () => {
    expect(
      secretValues(
        '  ADMIN_TOKEN: ${ADMIN_TOKEN:-abc}\n  ACQUIRER_SECRET: "REPLACE_ME"\nADMIN_TOKEN=xyz\nACQUIRER_SECRET=\nE2E_ADMIN_TOKEN: ${ADMIN_TOKEN:?set it}',
      ),
    ).toEqual(['abc', 'REPLACE_ME', 'xyz']);
  });
});
