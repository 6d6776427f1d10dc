import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMarkdown, ROOT } from './markdown';

const rules = readFileSync(join(ROOT, 'deploy', 'monitoring', 'alerts.yaml'), 'utf8');
const runbook = readMarkdown('docs/operations/runbook.md').text;

describe('the runbook', () => {
  it('has one section per alert of deploy/monitoring/alerts.yaml, and none for an alert that does not exist', () => {
    const alerts = [...rules.matchAll(/^\s*- alert: (\w+)\s*$/gm)].map((m) => m[1]);
    expect(alerts.length).toBeGreaterThan(10);
    const sections = [...runbook.matchAll(/^### (Payments\w+)\s*$/gm)].map((m) => m[1]);
    expect(sections).toEqual(alerts);
  });
});
