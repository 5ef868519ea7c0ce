// The alert rules (deploy/prometheus/gitops-config-api.rules.yaml): each one an alert with a
// severity, a summary, a description and a runbook_url naming its section of
// docs/operations.md, which says what it means, what a cluster experiences, what to check and
// how to fix it; each with a promtool unit test file of its own (test/deploy/prometheus/<alert>.yaml)
// that shows it firing and shows it quiet; the PrometheusRule of the kustomize component made
// from the same file. Then promtool itself checks the rules and runs every unit test — where
// promtool is installed (.ci/run installs Debian's prometheus package, which has it).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROMETHEUS_RULE_FILE, prometheusRuleText, RULE_FILE } from '../../scripts/prometheus-rule.ts';

const ROOT = join(import.meta.dirname, '../..');
const TESTS = join(import.meta.dirname, 'prometheus');
const OPERATIONS = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
const REPOSITORY = 'https://github.com/gitops-config-api/gitops-config-api';

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const ruleFile = parse(readFileSync(RULE_FILE, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
const rules = ruleFile.groups.flatMap((group) => group.rules);
const alerts = rules.map((rule) => rule.alert!);
const testFiles = readdirSync(TESTS)
  .filter((name) => name.endsWith('.yaml'))
  .sort();

/** The runbook section of an alert: from its heading to the next heading of the same or a higher level. */
function runbookOf(alert: string): string | undefined {
  const match = new RegExp(`^### ${alert}\\n([\\s\\S]*?)(?=^#{1,3} )`, 'm').exec(`${OPERATIONS}\n## end`);
  return match?.[1];
}

describe('the alert rules', () => {
  it('are alerts only, each named once, in groups named after the service', () => {
    expect(rules.length).toBeGreaterThanOrEqual(14);
    for (const rule of rules) expect(rule.alert, rule.record).toMatch(/^GitopsConfig[A-Z]\w+$/);
    expect(new Set(alerts).size).toBe(alerts.length);
    for (const group of ruleFile.groups) expect(group.name).toMatch(/^gitops-config-api\.[a-z]+$/);
  });

  it.each(alerts)(
    '%s has a severity, a summary, a description and a runbook section: meaning, what a cluster experiences, checks, ' +
      'fix',
    (alert) => {
      const rule = rules.find((r) => r.alert === alert)!;
      expect(['critical', 'warning']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary?.length).toBeGreaterThan(20);
      expect(rule.annotations?.description?.length).toBeGreaterThan(60);
      expect(rule.annotations?.runbook_url).toBe(`${REPOSITORY}/blob/main/docs/operations.md#${alert.toLowerCase()}`);
      const runbook = runbookOf(alert);
      expect(runbook, `docs/operations.md has a section "### ${alert}"`).toBeDefined();
      for (const part of ['What it means', 'What a cluster experiences', 'What to check', 'How to fix']) {
        expect(runbook, `${alert}: ${part}`).toMatch(new RegExp(`^\\*\\*${part}\\.\\*\\* \\S`, 'm'));
      }
    },
  );

  it.each(alerts)('%s has a promtool test file of its own that shows it firing and shows it quiet', (alert) => {
    const file = `${alert}.yaml`;
    expect(testFiles).toContain(file);
    const test = parse(readFileSync(join(TESTS, file), 'utf8')) as {
      rule_files: string[];
      tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
    };
    expect(test.rule_files.map((f) => join(TESTS, f))).toEqual([RULE_FILE]);
    const cases = test.tests.flatMap((t) => t.alert_rule_test ?? []);
    expect(
      cases.every((c) => c.alertname === alert),
      'every case is about this alert',
    ).toBe(true);
    expect(
      cases.some((c) => (c.exp_alerts ?? []).length > 0),
      'a case where it fires',
    ).toBe(true);
    expect(
      cases.some((c) => (c.exp_alerts ?? []).length === 0),
      'a case where it stays quiet',
    ).toBe(true);
  });

  it('have no test file for an alert that is not there', () => {
    expect(testFiles.map((name) => basename(name, '.yaml')).sort()).toEqual([...alerts].sort());
  });

  it('are the PrometheusRule of the kustomize component, made from the rule file by npm run rules:generate', () => {
    const committed = readFileSync(PROMETHEUS_RULE_FILE, 'utf8');
    expect(committed, `${relative(ROOT, PROMETHEUS_RULE_FILE)} is stale: run npm run rules:generate`).toBe(
      prometheusRuleText(readFileSync(RULE_FILE, 'utf8')),
    );
    expect((parse(committed) as { spec: { groups: unknown } }).spec.groups).toEqual(ruleFile.groups);
  });
});

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
const SKIPPED = " (skipped: promtool is not installed here; .ci/run installs it with Debian's prometheus package)";

describe.skipIf(!promtool)(`promtool${promtool ? '' : SKIPPED}`, () => {
  const run = (...args: string[]) => spawnSync('promtool', args, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });

  it('checks the rule file', () => {
    const result = run('check', 'rules', relative(ROOT, RULE_FILE));
    expect(result.stdout + result.stderr).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(result.status).toBe(0);
  });

  it(
    'passes every unit test: each alert fires when it should, ' + 'after its `for`, and stays quiet when it should not',
    () => {
      const result = run('test', 'rules', ...testFiles.map((name) => relative(ROOT, join(TESTS, name))));
      expect(result.stdout + result.stderr).not.toContain('FAILED');
      expect((result.stdout + result.stderr).match(/SUCCESS/g)?.length).toBe(testFiles.length);
      expect(result.status).toBe(0);
    },
  );
});
