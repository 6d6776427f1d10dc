import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDocs } from './config-docs';

/** npm run docs:config: writes the configuration reference and .env.example from the config schemas. */
const root = process.cwd();
for (const [path, text] of Object.entries(configDocs())) {
  writeFileSync(join(root, path), text);
  process.stdout.write(`wrote ${path}\n`);
}
