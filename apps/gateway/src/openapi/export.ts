import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateDocuments, OPENAPI_FILE, OPS_OPENAPI_FILE, serializeDocument } from './generate-document';

/** npm run openapi:export: writes the merchant API's document to docs/openapi.json, the internal port's to docs/ops-openapi.json. */
async function main(): Promise<void> {
  const { merchant, ops } = await generateDocuments();
  for (const [file, document] of [
    [OPENAPI_FILE, merchant],
    [OPS_OPENAPI_FILE, ops],
  ] as const) {
    writeFileSync(resolve(process.cwd(), file), serializeDocument(document));
    process.stdout.write(`wrote ${file}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
