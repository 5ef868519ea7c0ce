// A rollout moved by pull request, as a read-only deployment moves it: the service serves a
// Git remote (no crud mode, so it never commits), a simulated fleet of 24 clusters polls it,
// and the rollout's first step is out. Once the step's cluster fetched it, the status says
// `ready`; `gitops-config rollout advance` in a clone edits the file — the diff is the one
// line of `released`, comments kept — and once that is committed, pushed and announced, the
// clusters of step 2, and only they, get the answer the changed catalog entry gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { runTool } from '../helpers/run-tool.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import { catalogChangedAnswers, type SimulatedFleet, startSimulatedFleet } from '../helpers/simulated-fleet.ts';
import { announcePush } from '../helpers/store-actions.ts';
import { published } from '../helpers/store-events.ts';
import { ROLLOUT_ID, ROLLOUT_PATH, rolloutText, SET, STEP_2 } from '../fixtures/rollout-checkout.ts';

let fleet: SimulatedFleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

/** The service's status of the rollout once `check` holds: it moves with the clusters' polls. */
async function statusUntil(f: SimulatedFleet, check: (s: { state: string }) => boolean, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(f.service.url, `/api/v2/gitops/rollouts/${ROLLOUT_ID}`, { token: READ_TOKEN });
    expect(res.status, res.text).toBe(200);
    const status = res.json();
    if (check(status)) return status;
    if (Date.now() > deadline) throw new Error(`status not reached within ${timeoutMs} ms: ${res.text.slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a rollout advanced by a pull request, in read-only mode', () => {
  it('status says ready; advance in a clone is a one-line diff that, pushed, releases the next step', async () => {
    fleet = await startSimulatedFleet({
      backend: 'git-remote',
      extraFiles: { [ROLLOUT_PATH]: rolloutText({ released: 1 }) },
    });
    const f = fleet;
    const changed = await catalogChangedAnswers(f.clusters, SET);
    await statusUntil(f, (s) => s.state === 'ready');

    const status = await runTool(['rollout', 'status', ROLLOUT_ID, '--server', f.service.url], {
      env: { GITOPS_CONFIG_TOKEN: READ_TOKEN },
    });
    expect(status.status, status.stderr).toBe(0);
    expect(status.lines.slice(0, 3)).toEqual([
      'rollout kps-67-5: kube-prometheus-stack → component_version 67.5.0, oci_tag 67.5.0',
      'ready: step 2 (wave non-prod, 17 clusters) may be released',
      'step 1 of 4 released; clusters: pending 23, fetched 1',
    ]);
    // Ready as soon as step 1's one cluster fetched: every other cluster polls once more first.
    await f.polledSince(Date.now());
    const before = new Map(f.clusters.map((c) => [c.id, f.last(c.id)!.etag]));
    expect(before.get('dev-eu-1')).toBe(changed.get('dev-eu-1')!.etag);

    // A person, in a clone of the config repo.
    const work = f.prepared.remote!.work;
    git(work, 'pull', '-q', 'origin', 'main');
    const advanced = await runTool(['rollout', 'advance', ROLLOUT_ID], { cwd: work });
    expect(advanced.status, advanced.stderr).toBe(0);
    expect(
      git(work, 'diff', '-U0', '--no-color')
        .split('\n')
        .filter((l) => /^[-+][^-+]/.test(l)),
    ).toEqual(['-released: 1  # steps out so far', '+released: 2  # steps out so far']);
    expect(readFileSync(join(work, ROLLOUT_PATH), 'utf8')).toBe(rolloutText({ released: 2 }));

    git(
      work,
      'commit',
      '-q',
      '-am',
      advanced.lines.find((l) => l.startsWith('commit message: '))!.slice('commit message: '.length),
    );
    git(work, 'push', '-q', 'origin', 'HEAD:main');
    const commit = git(work, 'rev-parse', 'HEAD');
    await announcePush(f.service);
    await published(f.service, commit);
    // Two rounds of polls: a request sent before the publication may answer after the first
    // moment; every answer after the second comes from a request sent after the publication.
    await f.polledSince(Date.now());
    await f.polledSince(Date.now());
    for (const c of f.clusters) {
      const expected = c.id === 'dev-eu-1' || STEP_2.includes(c.id) ? changed.get(c.id)!.etag : before.get(c.id);
      expect(f.last(c.id)!.etag, c.id).toBe(expected);
    }
    for (const id of STEP_2) expect(f.last(id)!.body, id).toBe(changed.get(id)!.body);
    const after = await statusUntil(f, (s) => s.state === 'waiting' || s.state === 'ready');
    expect(after).toMatchObject({ released: 2 });
    expect(git(work, 'log', '-1', '--format=%s')).toBe('rollout kps-67-5: release step 2 (wave non-prod, 17 clusters)');
  });
});
