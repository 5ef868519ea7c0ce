// The log lines operators rely on: a poll at debug, a publication at info and a refusal at
// warn with the revision and its counts (clusters, inputs, problems), and one audit line per
// write with the fields of docs/decisions/0011-audit-trail.md.
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBackend } from '../helpers/backends.ts';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { commitAll, writeFiles } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';
import { watchLoads } from '../helpers/store-events.ts';

const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** Every input the service answers for the fleet, counted over the read endpoints themselves. */
async function inputsServed(url: string): Promise<number> {
  let total = 0;
  for (const dns of ['c1.k8s.example.com', 'bare.example.com']) {
    for (const endpoint of ['platform-components', 'namespaces', 'rolebindings']) {
      total += (await request(url, `/api/v2/gitops/clusters/${dns}/${endpoint}`, { token: READ_TOKEN })).json().inputs
        .length;
    }
  }
  return total;
}

describe('operations logs', () => {
  it(
    'logs a poll at debug, a publication at info and a refused revision at warn, each with the revision and its ' +
      'counts',
    async () => {
      const prepared = await prepareBackend('git');
      service = await startTestService(prepared.env);
      const poll = await request(service.url, PC, {
        token: READ_TOKEN,
        headers: { 'user-agent': 'flux-operator/v0.43.0' },
      });
      const revision = poll.headers['x-config-revision'];
      const polls = service.logs.filter((l) => l.msg === 'read request');
      expect(polls).toEqual([
        expect.objectContaining({
          level: 20,
          method: 'GET',
          path: PC,
          status: 200,
          revision,
          user_agent: 'flux-operator/v0.43.0',
        }),
      ]);

      const inputs = await inputsServed(service.url);
      expect(service.logs.filter((l) => l.msg === 'published a new revision')).toEqual([
        expect.objectContaining({
          level: 30,
          revision,
          previous: null,
          clusters: 2,
          inputs,
          warnings: expect.any(Number),
        }),
      ]);

      const loads = watchLoads(service);
      const podinfo = asRepoFiles()['platform_components/podinfo.yaml'] as Record<string, unknown>;
      writeFiles(prepared.dir!, { 'platform_components/podinfo.yaml': { ...podinfo, depends_on: ['ghost'] } });
      const bad = commitAll(prepared.dir!, 'depend on a component that does not exist');
      await loads.until(bad);
      const refusal = service.logs.find((l) => l.revision === bad && String(l.msg).includes('refused'));
      expect(refusal).toMatchObject({
        level: 40,
        revision: bad,
        served_revision: revision,
        clusters: 2,
        inputs,
        errors: 1,
      });
      expect(refusal!.problems).toEqual([expect.stringContaining('ghost')]);
      expect(refusal!.msg).toBe(
        `revision ${bad} refused, still serving revision ${String(revision)}: 1 problem(s) in revision ${bad}`,
      );
    },
  );

  it(
    'logs one audit line per write that reaches the store, with action, collection, id, role, revisions and changed ' +
      'fields',
    async () => {
      service = await startTestService({
        ...(await prepareBackend('memory')).env,
        API_MODE: 'crud',
        CRUD_AUTH_TOKEN: WRITE_TOKEN,
      });
      const patch = (body: unknown) =>
        request(service!.url, '/namespaces/team-b', {
          method: 'PATCH',
          token: WRITE_TOKEN,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const changed = await patch({ labels: { audited: 'yes' } });
      await patch({ labels: { audited: 'yes' } });
      await patch({ colour: 'red' });
      const audit = service.logs.filter((l) => l.msg === 'audit');
      const after = changed.headers['x-config-revision'];
      expect(audit).toEqual([
        expect.objectContaining({
          level: 30,
          action: 'update',
          collection: 'namespaces',
          id: 'team-b',
          role: 'write',
          revision_after: after,
          changed_fields: ['labels'],
        }),
        expect.objectContaining({
          action: 'update',
          id: 'team-b',
          revision_before: after,
          revision_after: after,
          changed_fields: [],
          unchanged: true,
        }),
      ]);
      expect(audit[0].revision_before).not.toBe(after);
      expect(service.logText()).not.toContain(WRITE_TOKEN);
    },
  );
});
