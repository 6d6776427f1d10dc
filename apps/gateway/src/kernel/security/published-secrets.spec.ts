import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deploymentFiles, repoRoot, valuesGivenTo } from '@pay/testing';
import { PUBLISHED_SECRETS } from './published-secrets';

/** ACQUIRER_SECRET*, ADMIN_TOKEN* and E2E_ADMIN_TOKEN */
const SECRET_NAMES = '(?:E2E_)?(?:ACQUIRER_SECRET\\w*|ADMIN_TOKEN\\w*)';
const secretValues = (text: string) => valuesGivenTo(SECRET_NAMES, text);

describe('published secrets', () => {
  it.each(deploymentFiles())(
    'every secret value in %s is refused by the gateway (listed in PUBLISHED_SECRETS)',
    (file) => {
      for (const value of secretValues(readFileSync(join(repoRoot(), file), 'utf8')))
        expect(PUBLISHED_SECRETS).toContain(value);
    },
  );

  it('finds values in the forms the files use', () => {
    expect(
      secretValues(
        '  ADMIN_TOKEN: ${ADMIN_TOKEN:-abc}\n  ACQUIRER_SECRET: "REPLACE_ME"\nADMIN_TOKEN=xyz\nACQUIRER_SECRET=\nE2E_ADMIN_TOKEN: ${ADMIN_TOKEN:?set it}',
      ),
    ).toEqual(['abc', 'REPLACE_ME', 'xyz']);
  });
});
