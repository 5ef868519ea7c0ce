// ?dryRun=All on every REST write and on POST /api/v2/gitops/changes: two services on two
// identical stores get the same requests, one as a dry run and one for real. The answers
// are the same — status, headers, body — but for the revision the real one made (a dry run
// names the served one, and `revision` is null in a change set's body) and the
// Gitops-Dry-Run header; the dry run's store, served revision and audit trail stay as they
// were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../helpers/backends.ts';
import { auditLines, type CrudService, gitOut, send, startCrud } from '../helpers/crud.ts';
import { type RawResponse, request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { auditRows, storeHead } from '../helpers/stored-commits.ts';

const CHANGES = '/api/v2/gitops/changes';

/**
 * Requests on records no other one touches, so each answers the same on the untouched store and on the one the real
 * requests changed.
 */
const REQUESTS: { method: string; path: string; body?: unknown; headers?: Record<string, string> }[] = [
  { method: 'POST', path: '/namespaces', body: { id: 'team-c', labels: { team: 'c' } } },
  {
    method: 'PUT',
    path: '/rolebindings/viewers',
    body: { role: 'view', subjects: [{ kind: 'Group', name: 'auditors', apiGroup: 'rbac.authorization.k8s.io' }] },
  },
  {
    method: 'PATCH',
    path: '/clusters/c1',
    body: { patches: { podinfo: { replicaCount: '5' } } },
    headers: { 'gitops-commit-message': 'Scale%20podinfo' },
  },
  { method: 'DELETE', path: '/namespaces/team-b' },
  {
    method: 'POST',
    path: CHANGES,
    body: {
      message: 'Add kyverno to c0',
      writes: [
        {
          op: 'patch',
          collection: 'clusters',
          id: 'c0',
          patch: { platform_components: [{ id: 'kyverno', enabled: true }] },
        },
        {
          op: 'create',
          collection: 'platform_components',
          id: 'kyverno',
          record: {
            component_path: 'kyverno',
            component_version: '3.3.0',
            oci_url: 'oci://ghcr.io/kyverno/charts',
            oci_tag: '3.3.0',
          },
        },
      ],
    },
  },
  // Refusals answer alike too.
  { method: 'DELETE', path: '/namespaces/team-a' },
  { method: 'PATCH', path: '/rolebindings/nobody', body: { role: 'view' } },
  {
    method: 'PUT',
    path: '/platform_components/traefik',
    body: { component_path: 'traefik' },
    headers: { 'if-match': '"stale"' },
  },
  {
    method: 'POST',
    path: CHANGES,
    body: { writes: [{ op: 'patch', collection: 'clusters', id: 'c1', patch: { namespaces: [{ id: 'ghost' }] } }] },
  },
];

/** The headers that may differ: the revision, the dry run's own, and the connection's. */
const VARYING = new Set(['x-config-revision', 'gitops-dry-run', 'date', 'connection', 'keep-alive']);

/** The headers to compare; a change set's body names the revision, so its length differs too. */
function headersOf(res: RawResponse, path: string): Record<string, unknown> {
  const varying = (name: string) =>
    VARYING.has(name) || (path === CHANGES && res.status === 201 && name === 'content-length');
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !varying(name)));
}

describe.each(BACKENDS)('dry runs on the %s backend', (backend) => {
  let dry: CrudService;
  let real: CrudService;
  beforeAll(async () => {
    [dry, real] = await Promise.all([startCrud(backend), startCrud(backend)]);
  });
  afterAll(async () => {
    await Promise.all([dry?.close(), real?.close()]);
  });

  it(
    'answer as the real call would, and store nothing: the ' + 'head, the served revision and the audit trail stay',
    async () => {
      const head = await storeHead(dry);
      const served = (await request(dry.url, '/ready')).json().revision;
      const auditRowsBefore = backend === 'sqlite' ? auditRows(dry).length : 0;
      for (const { method, path, body, headers } of REQUESTS) {
        const what = `${method} ${path}`;
        const trial = await send(dry, method, `${path}?dryRun=All`, body, { headers });
        const done = await send(real, method, path, body, { headers });
        expect(trial.status, `${what}: ${trial.text}`).toBe(done.status);
        expect(trial.headers['gitops-dry-run'], what).toBe('true');
        expect(done.headers['gitops-dry-run'], what).toBeUndefined();
        expect(headersOf(trial, path), what).toEqual(headersOf(done, path));
        if (done.status < 300) expect(trial.headers['x-config-revision'], what).toBe(served);
        if (done.status === 204) expect(trial.text).toBe('');
        else if (path === CHANGES && done.status === 201) {
          expect(trial.json(), what).toEqual({ ...done.json(), revision: null });
          await expectMatchesOpenApi('post', CHANGES, 201, trial.json());
          expect(done.json().revision).toBe(done.headers['x-config-revision']);
        } else expect(trial.json(), what).toEqual(done.json());
      }
      expect(await storeHead(dry)).toBe(head);
      expect((await request(dry.url, '/ready')).json().revision).toBe(served);
      expect(await storeHead(real)).not.toBe(await storeHead(dry));
      expect(auditLines(dry)).toEqual([]);
      expect(auditLines(real).length).toBeGreaterThan(0);
      if (backend === 'sqlite') expect(auditRows(dry)).toHaveLength(auditRowsBefore);
      if (backend === 'git') expect(gitOut(dry.dir!, 'status', '--porcelain')).toBe('');
      expect((await send(dry, 'GET', '/namespaces/team-c')).status).toBe(404);
      expect((await send(dry, 'GET', '/namespaces/team-b')).status).toBe(200);
    },
  );

  it('refuses any other dryRun value (400), as Kubernetes does, and stores nothing', async () => {
    const head = await storeHead(dry);
    for (const value of ['all', 'true', '']) {
      const res = await send(dry, 'PATCH', `/namespaces/team-a?dryRun=${value}`, { labels: { x: 'y' } });
      expect(res.status, value).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_error', details: [{ path: 'dryRun' }] });
    }
    // Given twice, it is not read at all (test/crud-write-query.test.ts has the other malformed queries).
    const twice = await send(dry, 'PATCH', '/namespaces/team-a?dryRun=All&dryRun=All', { labels: { x: 'y' } });
    expect(twice.json()).toMatchObject({
      error: 'bad_request',
      details: [{ path: 'dryRun', message: expect.stringContaining('more than once') }],
    });
    expect(
      (
        await send(dry, 'POST', `${CHANGES}?dryRun=None`, {
          writes: [{ op: 'delete', collection: 'namespaces', id: 'team-b' }],
        })
      ).status,
    ).toBe(400);
    expect(await storeHead(dry)).toBe(head);
  });
});
