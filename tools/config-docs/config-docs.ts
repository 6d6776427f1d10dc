import { renderEnvExample, renderReference } from './render';
import { SECTIONS, SERVICES } from './services';

/** The files generated from the config schemas, by their path from the repository's root. */
export function configDocs(): Record<string, string> {
  return {
    'docs/operations/configuration.md': renderReference(SERVICES, SECTIONS),
    '.env.example': renderEnvExample(SERVICES, SECTIONS),
  };
}
