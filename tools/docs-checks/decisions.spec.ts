import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readMarkdown, ROOT } from './markdown';

const RECORD = /^\d{4}-[a-z0-9-]+\.md$/;
const records = readdirSync(join(ROOT, 'docs', 'decisions'))
  .filter((name) => RECORD.test(name))
  .sort();
const index = readMarkdown('docs/decisions/README.md').text;

describe('the decision index', () => {
  it('has one row per record file, in order, each with a status', () => {
    const rows = [...index.matchAll(/^\| \[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\) \|[^|]+\| ([^|]+) \|$/gm)];
    expect(rows.map((r) => r[2])).toEqual(records);
    for (const [, number, file, status] of rows) {
      expect(file.startsWith(number)).toBe(true);
      expect(status.trim()).toMatch(/^(accepted|amended by \d{4}|superseded by \d{4})/);
    }
  });

  it('links no record that does not exist', () => {
    const linked = new Set([...index.matchAll(/\]\((\d{4}-[^)#]+\.md)/g)].map((m) => m[1]));
    expect([...linked].filter((file) => !records.includes(file))).toEqual([]);
  });
});
