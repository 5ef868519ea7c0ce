// Change sets (POST /api/v2/gitops/changes) and commit messages of single writes
// (Gitops-Commit-Message), on every backend over real HTTP: a set is judged as a whole and
// stored as one commit (one transaction, one revision) with its message, or refused all
// together naming the failing write by its index; every backend answers alike.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CrudService, send, startCrud } from '../helpers/crud.ts';
import { BACKENDS } from '../helpers/backends.ts';
import { type RawResponse, request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN } from '../helpers/service.ts';
import {
  auditRows,
  commitsOnBranch,
  lastCommitFiles,
  lastStoredMessage,
  storeHead,
} from '../helpers/stored-commits.ts';

const CHANGES = '/api/v2/gitops/changes';

const ADD_TEAM_NEW = {
  message: 'Add the team-new namespace to three clusters\n\nAsked for in TICKET-42.',
  writes: [
    // The references come first, the namespace last: judged as a whole, that is fine.
    { op: 'patch', collection: 'clusters', id: 'c1', patch: { namespaces: [{ id: 'team-a' }, { id: 'team-new' }] } },
    { op: 'patch', collection: 'clusters', id: 'c0', patch: { namespaces: [{ id: 'team-new' }] } },
    {
      op: 'create',
      collection: 'clusters',
      id: 'c7',
      record: {
        cluster_name: 'seven',
        cluster_dns: 'c7.example.com',
        environment: 'qa',
        namespaces: [{ id: 'team-new' }],
      },
    },
    { op: 'create', collection: 'namespaces', id: 'team-new', record: { labels: { team: 'new' } } },
  ],
};
const DNS_OF = { c1: 'c1.k8s.example.com', c0: 'bare.example.com', c7: 'c7.example.com' };

const revisionServed = async (service: CrudService): Promise<string> =>
  (await request(service.url, '/ready')).json().revision;

async function namespacesServedTo(
  service: CrudService,
  dns: string,
): Promise<{ ids: string[]; revision: string | undefined }> {
  const res = await request(service.url, `/api/v2/gitops/clusters/${dns}/namespaces`, { token: READ_TOKEN });
  expect(res.status).toBe(200);
  return {
    ids: (res.json().inputs as { id: string }[]).map((i) => i.id),
    revision: res.headers['x-config-revision'] as string | undefined,
  };
}

describe.each(BACKENDS)('change sets on the %s backend', (backend) => {
  let service: CrudService;
  beforeAll(async () => {
    service = await startCrud(backend);
  });
  afterAll(() => service?.close());

  it('the writes one by one, references first, are refused at the first reference; nothing is stored', async () => {
    const head = await storeHead(service);
    const first = ADD_TEAM_NEW.writes[0];
    const res = await send(service, 'PATCH', `/clusters/${first.id}`, first.patch);
    expect(res.status).toBe(400);
    expect(res.json().error).toBe('validation_error');
    expect(res.text).toContain('team-new');
    expect(await storeHead(service)).toBe(head);
  });

  it(
    'one set creating a namespace and referencing it from 3 clusters: one commit with its message, all 4 records ' +
      'served from the next request on',
    async () => {
      const before = {
        head: await storeHead(service),
        commits: backend.startsWith('git') ? commitsOnBranch(service) : 0,
        audit: backend === 'sqlite' ? auditRows(service).length : 0,
      };
      const res = await send(service, 'POST', CHANGES, ADD_TEAM_NEW);
      expect(res.status, res.text).toBe(201);
      const body = res.json();
      const head = await storeHead(service);
      expect(head).not.toBe(before.head);
      expect(body.revision).toBe(await revisionServed(service));
      expect(res.headers['x-config-revision']).toBe(body.revision);
      expect(body.unchanged).toBe(false);
      expect(body.records.map((r: { collection: string; id: string }) => `${r.collection}/${r.id}`)).toEqual([
        'clusters/c1',
        'clusters/c0',
        'clusters/c7',
        'namespaces/team-new',
      ]);
      for (const stored of body.records) {
        const read = await send(service, 'GET', `/${stored.collection}/${stored.id}`);
        expect(read.json()).toEqual(stored.record);
        expect(read.headers.etag).toBe(stored.etag);
      }
      // One commit (one transaction, one revision) with the message.
      expect(lastStoredMessage(service).startsWith(`${ADD_TEAM_NEW.message}\n`)).toBe(true);
      if (backend.startsWith('git')) {
        expect(commitsOnBranch(service)).toBe(before.commits + 1);
        expect(lastCommitFiles(service)).toEqual([
          'clusters/c0.yaml',
          'clusters/c1.yaml',
          'clusters/c7.yaml',
          'namespaces/team-new.yaml',
        ]);
      }
      if (backend === 'sqlite') {
        const rows = auditRows(service).slice(before.audit);
        expect(rows.map((r) => `${r.action} ${r.collection}/${r.record_id}`)).toEqual([
          'update clusters/c1',
          'update clusters/c0',
          'create clusters/c7',
          'create namespaces/team-new',
        ]);
        expect(new Set(rows.map((r) => `${r.revision_before}->${r.revision_after}`))).toEqual(
          new Set([`${before.head}->${head}`]),
        );
        expect(Number(head)).toBe(Number(before.head) + 1);
      }
      if (backend === 'memory') expect(head.split('.').at(-1)).toBe('1');
      for (const dns of Object.values(DNS_OF)) {
        const served = await namespacesServedTo(service, dns);
        expect(served.ids).toContain('team-new');
        expect(served.revision).toBe(body.revision);
      }
    },
  );

  it(
    'a set whose 7th write (index 6) has a stale if_match: ' + '412 naming write 6, nothing stored, the head unchanged',
    async () => {
      const stale = (await send(service, 'GET', '/namespaces/team-b')).headers.etag!;
      expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { moved: 'on' } })).status).toBe(200);
      const head = await storeHead(service);
      const served = await revisionServed(service);
      const audit = backend === 'sqlite' ? auditRows(service).length : 0;
      const writes = [
        ...[0, 1, 2, 3, 4, 5].map((i) => ({ op: 'create', collection: 'namespaces', id: `batch-${i}`, record: {} })),
        { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { late: 'yes' } }, if_match: stale },
      ];
      const res = await send(service, 'POST', CHANGES, { message: 'seven writes', writes });
      expect(res.status).toBe(412);
      expect(res.json()).toMatchObject({ error: 'precondition_failed', details: [{ index: 6, path: '' }] });
      expect(res.json().message).toMatch(/^write 6: namespaces\/team-b has changed since it was read/);
      expect(await storeHead(service)).toBe(head);
      expect(await revisionServed(service)).toBe(served);
      if (backend === 'sqlite') expect(auditRows(service)).toHaveLength(audit);
      expect((await send(service, 'GET', '/namespaces/batch-0')).status).toBe(404);
    },
  );

  it(
    'Gitops-Commit-Message is the commit message of a single write (percent-encoded UTF-8); without it, the ' +
      'generated one',
    async () => {
      const headers = { 'gitops-commit-message': 'Label%20team-b%20gold%0A%0AReviewed%20by%20Zo%C3%AB%20%E2%9C%93' };
      expect(
        (await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'gold' } }, { headers })).status,
      ).toBe(200);
      expect(lastStoredMessage(service).startsWith('Label team-b gold\n\nReviewed by Zoë ✓\n')).toBe(true);
      expect((await send(service, 'PATCH', '/namespaces/team-b', { labels: { tier: 'silver' } })).status).toBe(200);
      expect(lastStoredMessage(service).startsWith('namespaces: update team-b\n\nChanged fields: labels\n')).toBe(true);
    },
  );

  it(
    'refuses a commit message with a control character, ' + 'raw non-ASCII or a bad escape (400), storing nothing',
    async () => {
      const head = await storeHead(service);
      for (const value of ['one%0Dtwo', 'bell%07', 'caf\u00e9', '50% done']) {
        const res = await send(
          service,
          'PATCH',
          '/namespaces/team-b',
          { labels: { tier: 'x' } },
          { headers: { 'gitops-commit-message': value } },
        );
        expect(res.status, value).toBe(400);
        expect(res.json().details).toEqual([expect.objectContaining({ path: 'Gitops-Commit-Message' })]);
      }
      const res = await send(service, 'POST', CHANGES, {
        message: 'tab\tis fine, a bell \u0007 is not',
        writes: [{ op: 'delete', collection: 'namespaces', id: 'batch-0' }],
      });
      expect(res.status).toBe(400);
      expect(res.json().details).toEqual([{ path: 'message', message: expect.stringContaining('U+0007') }]);
      expect(await storeHead(service)).toBe(head);
    },
  );
});

/** Each answer with the revisions, which differ between backends, taken out. */
function comparable(res: RawResponse): unknown {
  const body = res.json();
  if (res.status === 201) body.revision = typeof body.revision;
  return { status: res.status, body };
}

describe('every backend answers a sequence of change sets alike', () => {
  const services: CrudService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  it('201, 400, 404, 409 and 412 sets: the same status and body on git, git-remote, memory and sqlite', async () => {
    services.push(...(await Promise.all(BACKENDS.map((b) => startCrud(b)))));
    const etag = (await send(services[0], 'GET', '/namespaces/team-a')).headers.etag!;
    const sets: unknown[] = [
      // A problem on record X names the last write to X: c0 gets a dangling reference at 0 and is written last at 2.
      {
        writes: [
          { op: 'patch', collection: 'clusters', id: 'c0', patch: { namespaces: [{ id: 'ghost' }] } },
          { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { a: 'b' } } },
          { op: 'patch', collection: 'clusters', id: 'c0', patch: { cluster_name: 'still-bare' } },
        ],
      },
      // Deleting a namespace still referenced: 409 naming the cluster, at the delete.
      {
        writes: [
          { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { a: 'b' } } },
          { op: 'delete', collection: 'namespaces', id: 'team-a' },
        ],
      },
      // ... and fine once the reference goes in the same set.
      {
        message: 'Retire team-a',
        writes: [
          { op: 'delete', collection: 'namespaces', id: 'team-a', if_match: etag },
          { op: 'patch', collection: 'clusters', id: 'c1', patch: { namespaces: [] } },
        ],
      },
      {
        writes: [
          { op: 'create', collection: 'namespaces', id: 'fresh', record: {} },
          { op: 'patch', collection: 'rolebindings', id: 'nobody', patch: { role: 'view' } },
        ],
      },
      { writes: [{ op: 'create', collection: 'namespaces', id: 'team-b', record: {} }] },
      {
        writes: [
          { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { a: 'c' } }, if_match: '"stale"' },
        ],
      },
      // The body's shape, by index.
      {
        writes: [
          { op: 'create', collection: 'namespaces', id: 'ok', record: {} },
          { op: 'upsert', collection: 'namespaces', id: 'x' },
          { op: 'delete', collection: 'nope', id: 'x', extra: 1 },
        ],
      },
      { writes: [] },
      { message: 7, writes: [{ op: 'delete', collection: 'namespaces', id: 'team-b' }], what: true },
      // Put back as it was: unchanged, nothing stored.
      {
        writes: [
          { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { x: 'y' } } },
          { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { x: null } } },
        ],
      },
    ];
    const answers: unknown[][] = [];
    for (const set of sets) {
      const responses = await Promise.all(services.map((s) => send(s, 'POST', CHANGES, set)));
      // Every answer is as the OpenAPI document describes it.
      for (const res of responses) await expectMatchesOpenApi('post', CHANGES, res.status, res.json());
      answers.push(responses.map(comparable));
    }
    for (const [i, perBackend] of answers.entries()) {
      for (const answer of perBackend.slice(1)) expect(answer, `set ${i}`).toEqual(perBackend[0]);
    }
    const statuses = answers.map((a) => (a[0] as { status: number }).status);
    expect(statuses).toEqual([400, 409, 201, 404, 409, 412, 400, 400, 400, 201]);
    const body = (i: number) =>
      (answers[i][0] as { body: { details: { index?: number; path: string; message: string }[]; message: string } })
        .body;
    expect(body(0).details.map((d) => d.index)).toEqual([2]);
    expect(body(0).details[0].path).toBe('/namespaces/0/id');
    expect(body(1)).toMatchObject({ details: [{ index: 1 }] });
    expect(body(1).message).toContain('c1');
    expect(body(3)).toMatchObject({ details: [{ index: 1, path: '' }] });
    expect(body(6).details.map((d) => `${d.index} ${d.path}`)).toEqual(['1 op', '2 extra', '2 collection']);
    expect((answers[9][0] as { body: { unchanged: boolean } }).body.unchanged).toBe(true);
  });
});
