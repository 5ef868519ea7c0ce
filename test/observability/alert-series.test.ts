// Every series the alert rules name is exported by the running service, with every label the
// rules match or group it by, and every label value they compare it with: a renamed metric, a
// renamed label or value breaks this test before it silences an alert. The service runs as
// the alerts expect to find it: on a remote Git repository, with PEERS, in crud mode, polled,
// probed, with a rollout, and with its newest revision refused. Series the service cannot
// export (a Deployment's replicas) are named here with where they come from.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RULE_FILE } from '../../scripts/prometheus-rule.ts';
import { prepareBackend } from '../helpers/backends.ts';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { git } from '../helpers/git-fixture.ts';
import { eventually, request } from '../helpers/http.ts';
import { type Family, parsePrometheusText } from '../helpers/prometheus-text.ts';
import { expressionReads, type Selector } from '../helpers/promql-selectors.ts';
import { pushFiles } from '../helpers/remote-suite.ts';
import { freePorts, PEER_TOKEN } from '../helpers/replica-set.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';

/** Series of other exporters, with the labels the rules read of them. */
const EXTERNAL: Record<string, { from: string; labels: string[] }> = {
  kube_deployment_spec_replicas: { from: 'kube-state-metrics', labels: ['namespace', 'deployment'] },
  kube_deployment_status_replicas_ready: { from: 'kube-state-metrics', labels: ['namespace', 'deployment'] },
};
/** What a scrape adds to every series (a ServiceMonitor's target labels). */
const TARGET_LABELS = ['namespace', 'job', 'instance', 'pod', 'service', 'endpoint', 'container'];

const rules = (
  parse(readFileSync(RULE_FILE, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] }
).groups.flatMap((g) => g.rules);

let service: TestService;
let families: Map<string, Family>;

beforeAll(async () => {
  const [port] = await freePorts(1);
  const prepared = await prepareBackend('git-remote');
  service = await startTestService({
    ...prepared.env,
    // Fetched often, so that the broken commit below is refused soon.
    CONFIG_SYNC_INTERVAL: '200ms',
    API_MODE: 'crud',
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
    LISTEN_ADDR: `127.0.0.1:${port}`,
    // Itself as its only peer: the peers' series are there, as on every replica of the base.
    PEERS: `http://127.0.0.1:${port}`,
    PEER_TOKEN,
  });
  expect(
    (
      await request(service.url, '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components', {
        token: READ_TOKEN,
      })
    ).status,
  ).toBe(200);
  expect((await request(service.url, '/ready')).status).toBe(200);
  // A rollout (paused: the service releases nothing), so that the rollout series are there with their labels.
  const rollout = {
    id: 'traefik-34',
    component: 'traefik',
    set: { oci_tag: '34.0.0' },
    waves: [{ name: 'prod', environments: ['prod'] }],
    paused: true,
  };
  const headers = { 'content-type': 'application/json' };
  const body = JSON.stringify(rollout);
  const created = await request(service.url, '/rollouts', { method: 'POST', token: WRITE_TOKEN, headers, body });
  expect(created.status, created.text).toBe(201);
  const hasRollout = async () => (await request(service.url, '/metrics')).text.includes('gitops_config_rollout_state{');
  await eventually(hasRollout, 10_000);
  // A refused revision, so that the refused revision's series is there with its labels.
  git(prepared.remote!.work, 'pull', '-q');
  const podinfo = asRepoFiles()['platform_components/podinfo.yaml'] as Record<string, unknown>;
  pushFiles(
    prepared.remote!.work,
    { 'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['ghost'] } },
    'a broken dependency',
  );
  await eventually(
    async () => (await request(service.url, '/metrics')).text.includes('gitops_config_refused_revision_info{'),
    10_000,
  );
  families = parsePrometheusText((await request(service.url, '/metrics')).text);
}, 60_000);
afterAll(async () => {
  await service?.close();
});

/** The exported family a sample name belongs to (a histogram's _bucket, _sum, _count too). */
function familyOf(metric: string): Family | undefined {
  return families.get(metric) ?? families.get(metric.replace(/_(bucket|sum|count)$/, ''));
}

const labelsOf = (metric: string): Set<string> =>
  new Set(
    EXTERNAL[metric]?.labels ??
      (familyOf(metric)?.samples ?? []).flatMap((s) => (s.name === metric ? Object.keys(s.labels) : [])),
  );

describe('the series of the alert rules', () => {
  const reads = rules.map((rule) => ({ alert: rule.alert, ...expressionReads(rule.expr) }));

  it("are read from every rule: the service's own, and the few of other exporters named here", () => {
    for (const { alert, selectors } of reads) expect(selectors.length, alert).toBeGreaterThan(0);
    const named = new Set(reads.flatMap((r) => r.selectors.map((s) => s.metric)));
    expect([...named].filter((m) => m.startsWith('gitops_config_')).length).toBeGreaterThanOrEqual(15);
    for (const metric of Object.keys(EXTERNAL)) expect(named, `${metric} is still read by a rule`).toContain(metric);
  });

  it.each(rules.map((rule) => [rule.alert, rule.expr]))(
    '%s: every series it names is exported with the labels and values it matches',
    (alert, expr) => {
      const { selectors, groupingLabels } = expressionReads(expr);
      const known = new Set(TARGET_LABELS);
      for (const selector of selectors) {
        const external = EXTERNAL[selector.metric];
        if (!external)
          expect(familyOf(selector.metric), `${alert}: ${selector.metric} is exported by the service`).toBeDefined();
        const labels = labelsOf(selector.metric);
        for (const label of labels) known.add(label);
        for (const matcher of selector.matchers) {
          expect(labels, `${alert}: ${selector.metric} has the label ${matcher.label}`).toContain(matcher.label);
          if (!external) expectValue(alert, selector, matcher);
        }
      }
      for (const label of groupingLabels)
        expect(known, `${alert}: ${label} is a label of a series it reads, or a target label`).toContain(label);
    },
  );
});

/**
 * An equality (or inequality) is with a value the service exports; a regular expression is one JavaScript reads the
 * same way.
 */
function expectValue(alert: string, selector: Selector, matcher: Selector['matchers'][number]): void {
  const values = new Set(
    familyOf(selector.metric)!
      .samples.filter((s) => s.name === selector.metric)
      .map((s) => s.labels[matcher.label]),
  );
  if (matcher.op === '=' || matcher.op === '!=') {
    expect(
      values,
      `${alert}: ${selector.metric}{${matcher.label}="${matcher.value}"} is a value the service exports`,
    ).toContain(matcher.value);
  } else {
    // Prometheus anchors a regular expression at both ends (RE2; the rules use only what JavaScript reads alike).
    expect(() => new RegExp(`^(?:${matcher.value})$`), `${alert}: ${matcher.value}`).not.toThrow();
  }
}
