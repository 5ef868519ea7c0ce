// `gitops-config rollout list` and `rollout status <id>` against the real service with a
// simulated fleet polling it: --format json is the service's answer as it is; text and
// Markdown say the state, the reason, the step reached and the clusters by state, and the
// status each step with its clusters by state. An unknown id, a credential that may not read
// the fleet and a service out of reach exit 1; a wrong command line 2.
import { afterEach, describe, expect, it } from 'vitest';
import { clusterTokenKey, signClusterToken } from '../../src/domain/cluster-token.ts';
import { request } from '../helpers/http.ts';
import { runTool } from '../helpers/run-tool.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { FLEET_TOKEN_KEY, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';
import { ROLLOUT_ID, ROLLOUT_PATH, rolloutText, STEP_2 } from '../fixtures/rollout-checkout.ts';

let fleet: SimulatedFleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

const READER = { GITOPS_CONFIG_TOKEN: READ_TOKEN };

/** The fleet once step 1 is done, every poller stopped then: the status holds still for the comparisons. */
async function readyFleet(): Promise<SimulatedFleet> {
  fleet = await startSimulatedFleet({ extraFiles: { [ROLLOUT_PATH]: rolloutText({ released: 1 }) } });
  const f = fleet;
  for (let i = 0; ; i++) {
    const s = (await request(f.service.url, `/api/v2/gitops/rollouts/${ROLLOUT_ID}`, { token: READ_TOKEN })).json();
    if (s.state === 'ready') break;
    if (i > 80) throw new Error(`not ready: ${JSON.stringify(s).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const c of f.clusters) f.stop(c.id);
  return f;
}

describe('gitops-config rollout list and status', () => {
  it("prints the service's answer as JSON, and says it in words as text and Markdown", async () => {
    const f = await readyFleet();
    const tool = (...args: string[]) => runTool(['rollout', ...args, '--server', f.service.url], { env: READER });
    const api = async (path: string) => (await request(f.service.url, path, { token: READ_TOKEN })).json();

    const json = await tool('status', ROLLOUT_ID, '--format', 'json');
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await api(`/api/v2/gitops/rollouts/${ROLLOUT_ID}`));
    const listJson = await tool('list', '--format', 'json');
    expect(JSON.parse(listJson.stdout)).toEqual(await api('/api/v2/gitops/rollouts'));

    const detail = JSON.parse(json.stdout);
    const text = await tool('status', ROLLOUT_ID);
    expect(text.status, text.stderr).toBe(0);
    const [step1] = detail.steps;
    expect(text.lines).toEqual([
      'rollout kps-67-5: kube-prometheus-stack → component_version 67.5.0, oci_tag 67.5.0',
      'ready: step 2 (wave non-prod, 17 clusters) may be released',
      'step 1 of 4 released; clusters: pending 23, fetched 1',
      '',
      `step 1 (wave canary, 1 cluster): released ${step1.released_at} in ${step1.released_in.slice(0, 12)}, done ` +
        `${step1.done_at}, soak ends ${step1.soak_ends_at}`,
      '  fetched   dev-eu-1',
      '',
      'step 2 (wave non-prod, 17 clusters): not released',
      `  pending   ${STEP_2.join(', ')}`,
      '',
      'step 3 (wave prod, 3 clusters): not released',
      '  pending   prod-eu-1, prod-eu-2, prod-eu-3',
      '',
      'step 4 (wave prod, 3 clusters): not released',
      '  pending   prod-us-1, prod-us-2, prod-us-3',
    ]);
    const markdown = await tool('status', ROLLOUT_ID, '--format', 'markdown');
    expect(markdown.lines.slice(0, 8)).toEqual([
      '### Rollout `kps-67-5`: kube-prometheus-stack → component_version 67.5.0, oci_tag 67.5.0',
      '',
      '**ready**: step 2 (wave non-prod, 17 clusters) may be released',
      '',
      'step 1 of 4 released; clusters: pending 23, fetched 1',
      '',
      '| Step | Wave | Released | Done | Soak ends | Clusters |',
      '|---|---|---|---|---|---|',
    ]);
    expect(markdown.lines[8]).toBe(
      `| 1 | canary | ${step1.released_at} (${step1.released_in.slice(0, 12)}) | ${step1.done_at} | ` +
        `${step1.soak_ends_at} | fetched: dev-eu-1 |`,
    );
    expect(markdown.lines).toHaveLength(12);

    const list = await tool('list');
    expect(list.lines).toEqual([
      'kps-67-5: kube-prometheus-stack → component_version 67.5.0, oci_tag 67.5.0',
      '  ready: step 2 (wave non-prod, 17 clusters) may be released',
      '  step 1 of 4 released; clusters: pending 23, fetched 1',
    ]);
    const listMarkdown = await tool('list', '--format', 'markdown');
    expect(listMarkdown.lines).toEqual([
      '| Rollout | Component | Set | State | Step | Clusters | Reason |',
      '|---|---|---|---|---|---|---|',
      '| kps-67-5 | kube-prometheus-stack | component_version 67.5.0, oci_tag 67.5.0 | **ready** | step 1 of 4 ' +
        'released | pending 23, fetched 1 | step 2 (wave non-prod, 17 clusters) may be released |',
    ]);
  });

  it('exits 1 for an unknown id or a refusal, 2 for a wrong command line', async () => {
    const f = await readyFleet();
    const unknown = await runTool(['rollout', 'status', 'nope', '--server', f.service.url], { env: READER });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^gitops-config: the service answered 404 not_found: no rollout "nope" is served/);
    const cluster = { GITOPS_CONFIG_TOKEN: signClusterToken(clusterTokenKey(FLEET_TOKEN_KEY), 'dev-eu-1', 0) };
    const forbidden = await runTool(['rollout', 'list', '--server', f.service.url], { env: cluster });
    expect(forbidden.status).toBe(1);
    expect(forbidden.stderr).toMatch(/^gitops-config: the service answered 403 /);
    const away = await runTool(['rollout', 'list', '--server', 'http://127.0.0.1:9'], { env: READER });
    expect(away.status).toBe(1);
    expect(away.stderr).toMatch(/^gitops-config: cannot reach http:\/\/127\.0\.0\.1:9: /);

    const cases: [string[], Record<string, string>, RegExp][] = [
      [['status', ROLLOUT_ID], READER, /required option '--server <url>' not specified/],
      [['status', '--server', f.service.url], READER, /missing required argument 'id'/],
      [['list', '--server', f.service.url], {}, /no token: set GITOPS_CONFIG_TOKEN/],
      [['list', '--server', f.service.url, '--format', 'yaml'], READER, /argument 'yaml' is invalid/],
      [['list', '--server', 'ftp://example.com'], READER, /is not an http or https URL/],
    ];
    for (const [args, env, message] of cases) {
      const result = await runTool(['rollout', ...args], { env });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });
});
