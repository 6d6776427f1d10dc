/**
 * The alert rules (deploy/monitoring/alerts.yaml), part of the unit suite:
 * - `promtool check rules` accepts them and `promtool test rules` passes their unit tests
 *   (alerts.test.yaml: each alert fires on the series it is for and stays silent beside it);
 * - every alert has a test where it fires, and the runbook (docs/operations/runbook.md) names it;
 * - every metric the tests feed is one the services serve (a metric renamed in the code and not
 *   in the rules would leave an alert that can never fire).
 *
 * Needs promtool: tools/test.sh installs it into .local/promtool (PROMTOOL names another); a
 * missing binary fails the test, it is never skipped.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, runTool } from './run-tool';

const RULES = join(ROOT, 'deploy', 'monitoring', 'alerts.yaml');
const TESTS = join(ROOT, 'deploy', 'monitoring', 'alerts.test.yaml');
/** A histogram's series carry these suffixes on the metric's name. */
const HISTOGRAM_SUFFIXES = /_(bucket|count|sum)$/;

interface RuleFile {
  groups: { name: string; rules: { alert: string; expr: string }[] }[];
}
interface TestFile {
  tests: { input_series: { series: string }[]; alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
}

function promtool(args: string[]): string {
  const bin = process.env.PROMTOOL ?? join(ROOT, '.local', 'promtool', 'promtool');
  if (!existsSync(bin))
    throw new Error(
      `promtool is not at ${bin}: bash tools/test.sh installs it (ensure_promtool in tools/lib/services.sh), or set PROMTOOL`,
    );
  return runTool(bin, args, 'bash tools/test.sh (ensure_promtool in tools/lib/services.sh)');
}

/** The names of the metrics the services register (prom-client's Counter, Gauge, Histogram, Summary), read from their sources. */
function servedMetrics(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (entry !== 'node_modules' && entry !== 'generated') walk(path);
      } else if (entry.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(entry)) {
        for (const m of readFileSync(path, 'utf8').matchAll(
          /new (?:Counter|Gauge|Histogram|Summary)(?:<[^>]*>)?\(\{\s*name: '([a-z_:]+)'/g,
        ))
          names.add(m[1]);
      }
    }
  };
  for (const top of ['apps', 'libs']) walk(join(ROOT, top));
  return names;
}

describe('alert rules (deploy/monitoring)', () => {
  const rules = parse(readFileSync(RULES, 'utf8')) as RuleFile;
  const tests = parse(readFileSync(TESTS, 'utf8')) as TestFile;
  const alerts = rules.groups.flatMap((g) => g.rules.map((r) => r.alert));

  it('are valid Prometheus rules (promtool check rules)', () => {
    expect(promtool(['check', 'rules', RULES])).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it('pass their unit tests (promtool test rules)', () => {
    expect(promtool(['test', 'rules', TESTS])).toContain('SUCCESS');
  });

  it('each fire in at least one test', () => {
    const firing = new Set(
      tests.tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)),
    );
    expect(alerts.filter((a) => !firing.has(a))).toEqual([]);
  });

  it('are tested on metrics the services serve', () => {
    const served = servedMetrics();
    // The scan finds the metrics (guards against a scan that finds nothing and so checks nothing).
    expect(served).toContain('bus_dead_letters_total');
    const fed = new Set(
      tests.tests.flatMap((t) => t.input_series.map((s) => s.series.slice(0, s.series.indexOf('{')))),
    );
    const unknown = [...fed].filter((name) => !served.has(name) && !served.has(name.replace(HISTOGRAM_SUFFIXES, '')));
    expect(unknown).toEqual([]);
  });

  it('are each named in the runbook', () => {
    const runbook = readFileSync(join(ROOT, 'docs', 'operations', 'runbook.md'), 'utf8');
    expect(alerts.filter((a) => !runbook.includes(`\`${a}\``))).toEqual([]);
  });
});
