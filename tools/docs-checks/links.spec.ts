import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { headingAnchors, linkTargets, markdownUnder, readMarkdown, ROOT } from './markdown';

/**
 * Files the docs link to that other work writes: configuration.md is generated from the config
 * schemas (its own test fails when it is stale). A link to it is checked, anchors included,
 * wherever the file exists.
 */
const WRITTEN_ELSEWHERE = ['docs/operations/configuration.md'];

const files = [readMarkdown('README.md'), ...markdownUnder('docs')];

/** Every relative link of a file that does not resolve: a missing file, or an anchor no heading has. */
function brokenLinks(path: string, text: string): string[] {
  return linkTargets(text)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .filter((target) => {
      const [file, anchor] = target.split('#');
      const resolved = file === '' ? path : normalize(join(dirname(path), decodeURI(file)));
      if (resolved.startsWith('..')) return true;
      const full = join(ROOT, resolved);
      if (!existsSync(full)) return !WRITTEN_ELSEWHERE.includes(resolved);
      if (anchor === undefined || !resolved.endsWith('.md') || statSync(full).isDirectory()) return false;
      return !headingAnchors(readMarkdown(resolved).text).has(anchor);
    })
    .map((target) => `${path}: ${target}`);
}

describe('links in the README and docs/', () => {
  it('finds the files to check', () => {
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['README.md', 'docs/README.md', 'docs/merchant-api.md', 'docs/decisions/README.md']),
    );
  });

  it('every relative link resolves to a file, and to a heading where it names one', () => {
    expect(files.flatMap((f) => brokenLinks(f.path, f.text))).toEqual([]);
  });
});
