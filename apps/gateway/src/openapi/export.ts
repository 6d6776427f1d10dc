import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateMerchantDocument, OPENAPI_FILE, serializeDocument } from './generate-document';

/** npm run openapi:export: writes the merchant API's OpenAPI document to docs/openapi.json. */
async function main(): Promise<void> {
  const target = resolve(process.cwd(), OPENAPI_FILE);
  writeFileSync(target, serializeDocument(await generateMerchantDocument()));
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
