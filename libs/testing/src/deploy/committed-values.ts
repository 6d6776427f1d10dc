import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../repo-root';

/** The files that give settings their values in a deployment: compose, its env files, .env.example, deploy/. */
export function deploymentFiles(): string[] {
  return ['docker-compose.yml', 'docker-compose.e2e.yml', '.env.compose', '.env.example', ...yamlFiles('deploy')];
}

function yamlFiles(dir: string): string[] {
  return readdirSync(join(repoRoot(), dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Every value `text` gives a setting whose name matches `name` (a regular expression's source):
 * literal (`NAME: value`, `NAME=value`, quoted or not), or the default of `${VAR:-default}`; a
 * `${VAR:?message}` gives none. Values a file publishes, to check against the lists of published
 * secrets the services refuse.
 */
export function valuesGivenTo(name: string, text: string): string[] {
  return [...text.matchAll(new RegExp(`^[ \\t]*-?[ \\t]*(?:${name})[ \\t]*[:=][ \\t]*(.*)$`, 'gm'))]
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

/** The values the deployment files give settings matching `name`, each with its file. */
export function committedValues(name: string): { file: string; value: string }[] {
  return deploymentFiles().flatMap((file) =>
    valuesGivenTo(name, readFileSync(join(repoRoot(), file), 'utf8')).map((value) => ({ file, value })),
  );
}
