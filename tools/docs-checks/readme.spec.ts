import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMarkdown, ROOT } from './markdown';

// The README is the front door: what the platform is, the two commands, where things live, how
// money moves, and links into docs/. Reference material lives in docs/. There is no check of the
// settings here: docs/operations/configuration.md is generated from the config schemas, and its
// own test fails when it is stale.
const readme = readMarkdown('README.md').text;

describe('README', () => {
  it('stays a front door: at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('gives the two commands a newcomer copies', () => {
    expect(readme).toContain('bash tools/dev/up.sh');
    expect(readme).toContain('bash tools/test.sh');
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toContain('tools/test.sh');
  });
});
