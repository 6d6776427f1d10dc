import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDocs } from './config-docs';

const ROOT = join(__dirname, '..', '..');

describe('the files generated from the config schemas', () => {
  it.each(Object.entries(configDocs()))('%s is up to date', (path, text) => {
    const committed = readFileSync(join(ROOT, path), 'utf8').split('\n');
    const generated = text.split('\n');
    const line = generated.findIndex((l, i) => l !== committed[i]);
    if (line !== -1 || committed.length !== generated.length)
      throw new Error(
        `${path} is stale (from line ${line === -1 ? generated.length + 1 : line + 1}): run \`npm run docs:config\` and commit it`,
      );
  });
});
