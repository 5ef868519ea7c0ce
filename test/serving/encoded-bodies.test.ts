// Encoded bodies outlive revisions: after a change, a cluster whose records did not change is
// answered with the very bytes (and gzip copy) it had, under the new revision's headers, and
// only the responses made from a changed record are encoded again (an answer kept in the store
// keeps the number of the encoding that made it: StoredBody.madeBy). Checked on the real server
// (a Git repository edited and committed, and REST writes in crud mode), and on the serving
// classes directly.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../../src/domain/projections/index.ts';
import type { RecordSets } from '../../src/domain/records.ts';
import { normalizeRollout } from '../../src/domain/rollouts/rollout-normalize.ts';
import { createSnapshot, type Snapshot, withRecord } from '../../src/domain/snapshot.ts';
import { EncodedBodyCache, MAX_LISTS } from '../../src/serving/encoded-body-cache.ts';
import { PlainBytesBudget, type PlainBytesHolder } from '../../src/serving/plain-bytes-budget.ts';
import { encodeInputsDocument } from '../../src/serving/encoded-body.ts';
import type { ServedBody, ServedResponse } from '../../src/serving/served-response.ts';
import { StoredBody } from '../../src/serving/stored-body.ts';
import { ResponseTable } from '../../src/serving/response-table.ts';
import { type CrudService, send, startCrud } from '../helpers/crud.ts';
import { asRepoFiles } from '../helpers/fixture-data.ts';
import { commitAll, makeConfigRepo, removeDir, writeFiles } from '../helpers/git-fixture.ts';
import { eventually, type RawResponse, request } from '../helpers/http.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];

const component = (id: string, tag: string) => ({
  id,
  component_path: `charts/${id}`,
  component_version: tag,
  oci_url: `oci://registry.example.com/${id}`,
  oci_tag: tag,
});

const cluster = (n: number, components: string[], namespaces: string[], rolebindings: string[]) => ({
  id: `c${n}`,
  cluster_name: `cluster-${n}`,
  cluster_dns: `c${n}.fleet.example.com`,
  environment: 'prod',
  platform_components: components.map((id) => ({ id, enabled: true })),
  namespaces: namespaces.map((id) => ({ id })),
  rolebindings: rolebindings.map((id) => ({ id })),
});

/** c1 and c2 use comp-b, c3 does not; c4 is removed by the last step. */
const DATA = {
  clusters: [
    cluster(1, ['comp-a', 'comp-b'], ['team-a'], ['admins']),
    cluster(2, ['comp-b'], ['team-b'], ['admins']),
    cluster(3, ['comp-c', 'comp-a'], ['team-a', 'team-b'], []),
    cluster(4, ['comp-c'], [], ['admins']),
  ],
  platform_components: [component('comp-a', '1.0.0'), component('comp-b', '2.0.0'), component('comp-c', '3.0.0')],
  namespaces: [
    { id: 'team-a', labels: { team: 'a' } },
    { id: 'team-b', labels: { team: 'b' } },
  ],
  rolebindings: [
    {
      id: 'admins',
      role: 'cluster-admin',
      subjects: [{ kind: 'Group', name: 'platform', apiGroup: 'rbac.authorization.k8s.io' }],
    },
  ],
  rollouts: [],
};

const dnsOf = (id: string) => `${id}.fleet.example.com`;
const path = (id: string, endpoint: string) => `/api/v2/gitops/clusters/${dnsOf(id)}/${endpoint}`;

function asBody(prepared: ServedResponse | undefined): ServedBody {
  expect(prepared?.kind).toBe('body');
  return prepared as ServedBody;
}

/** Which encoding made a kept answer: the same number while its bytes are kept, a new one when made again. */
function madeBy(prepared: ServedBody): number {
  expect(prepared.encoded).toBeInstanceOf(StoredBody);
  return (prepared.encoded as StoredBody).madeBy;
}

/** A buffer that owns its memory: nothing else is kept alive by holding it. */
function expectRightSized(buf: Buffer): void {
  expect(buf.byteOffset).toBe(0);
  expect(buf.buffer.byteLength).toBe(buf.length);
}

/**
 * One poll plain and gzip, and what was prepared for it, read when it was polled (a kept answer's
 * view reads the store when used, so a view held across a reload shows what is kept then).
 */
interface Polled {
  plain: RawResponse;
  gzip: RawResponse;
  prepared: ServedBody;
  gzipped: Buffer;
  body: Buffer;
  made: number;
}

describe('encoded bodies across revisions of a Git repository', () => {
  let dir: string;
  let service: TestService;
  /** Every response of the previous revision, as served and as prepared. */
  let seen: Map<string, Polled>;

  const prepared = (id: string, endpoint: PerClusterEndpoint) =>
    asBody(service.responses.current()!.forCluster(endpoint, dnsOf(id)));

  /** GETs every endpoint of the clusters plain and gzipped (so gzip copies exist), and keeps what was prepared. */
  async function pollAll(ids: string[]) {
    const out = new Map<string, Polled>();
    for (const id of ids) {
      for (const endpoint of ENDPOINTS) {
        const plain = await request(service.url, path(id, endpoint), { token: READ_TOKEN });
        const gzip = await request(service.url, path(id, endpoint), {
          token: READ_TOKEN,
          headers: { 'accept-encoding': 'gzip' },
        });
        expect(plain.status).toBe(200);
        expect(gzip.headers['content-encoding']).toBe('gzip');
        const p = prepared(id, endpoint);
        out.set(`${id} ${endpoint}`, { plain, gzip, prepared: p, gzipped: p.gzipped(), body: p.body, made: madeBy(p) });
      }
    }
    return out;
  }

  /** Commits the files and waits until that commit is served. */
  async function publish(files: Record<string, object>, remove: string[] = []): Promise<string> {
    writeFiles(dir, files);
    for (const file of remove) rmSync(join(dir, file));
    const commit = commitAll(dir, 'edit');
    await eventually(() => service.store.published()?.snapshot.revision === commit, 5000);
    return commit;
  }

  beforeAll(async () => {
    dir = makeConfigRepo(asRepoFiles(DATA));
    service = await startTestService({ CONFIG_REPO: dir });
    seen = await pollAll(['c1', 'c2', 'c3', 'c4']);
  });
  afterAll(async () => {
    await service?.close();
    removeDir(dir);
  });

  it(
    'keeps the bytes, ETag and gzip copy of every unaffected cluster when one cluster file changes, under the new ' +
      'X-Config-Revision',
    async () => {
      const before = seen;
      const oldRevision = service.store.published()!.snapshot.revision;
      const commit = await publish({
        'clusters/c1.yaml': { ...DATA.clusters[0], patches: { 'comp-a': { replicas: '3' } } },
      });
      expect(commit).not.toBe(oldRevision);
      seen = await pollAll(['c1', 'c2', 'c3', 'c4']);

      for (const id of ['c2', 'c3', 'c4']) {
        for (const endpoint of ENDPOINTS) {
          const was = before.get(`${id} ${endpoint}`)!;
          const now = seen.get(`${id} ${endpoint}`)!;
          expect(now.plain.headers['x-config-revision']).toBe(commit);
          expect(now.gzip.headers['x-config-revision']).toBe(commit);
          expect(now.plain.headers.etag).toBe(was.plain.headers.etag);
          expect(now.gzip.headers.etag).toBe(was.gzip.headers.etag);
          expect(now.plain.body.equals(was.plain.body)).toBe(true);
          expect(now.gzip.body.equals(was.gzip.body)).toBe(true);
          // The very same bytes, not an equal copy: nothing was encoded again.
          expect(now.prepared.revision).toBe(commit);
          expect(now.made).toBe(was.made);
          expect(now.body).toBe(was.body);
          expect(now.gzipped.buffer).toBe(was.gzipped.buffer);
          expect(now.gzipped.byteOffset).toBe(was.gzipped.byteOffset);
        }
      }
      // A revalidation of the old ETag is a 304 naming the new revision.
      const revalidated = await request(service.url, path('c2', 'namespaces'), {
        token: READ_TOKEN,
        headers: { 'if-none-match': before.get('c2 namespaces')!.plain.headers.etag! },
      });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers['x-config-revision']).toBe(commit);
    },
  );

  it('serves the changed cluster its new response', () => {
    const now = seen.get('c1 platform-components')!;
    expect(now.plain.json().inputs.find((i: { id: string }) => i.id === 'comp-a').patches).toEqual({ replicas: '3' });
    expect(now.made).not.toBe(seen.get('c2 platform-components')!.made);
    expect(now.plain.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(gunzipSync(now.gzip.body).equals(now.plain.body)).toBe(true);
  });

  it('encodes again exactly the responses of the clusters that reference a changed catalog entry', async () => {
    const before = seen;
    const listBefore = asBody(service.responses.current()!.clustersList());
    const commit = await publish({ 'platform_components/comp-b.yaml': component('comp-b', '2.0.1') });
    seen = await pollAll(['c1', 'c2', 'c3', 'c4']);

    const reencoded = [...seen].filter(([key, now]) => now.made !== before.get(key)!.made).map(([key]) => key);
    expect(reencoded).toEqual(['c1 platform-components', 'c2 platform-components']);
    for (const key of reencoded) {
      expect(seen.get(key)!.plain.headers.etag).not.toBe(before.get(key)!.plain.headers.etag);
      expect(seen.get(key)!.plain.text).toContain('"oci_tag":"2.0.1"');
    }
    for (const [key, now] of seen) {
      expect(now.plain.headers['x-config-revision'], key).toBe(commit);
      if (!reencoded.includes(key)) expect(now.gzipped.equals(before.get(key)!.gzipped), key).toBe(true);
    }
    // No cluster changed: the fleet listing keeps its bytes too.
    const listAfter = asBody(service.responses.current()!.clustersList());
    expect(listAfter.revision).toBe(commit);
    expect(listAfter.body).toBe(listBefore.body);
  });

  it('holds every plain body in a buffer of its own size, and the gzip copies together in shared slabs', async () => {
    const slabs = new Set<ArrayBufferLike>();
    for (const [key, { prepared: p, gzip, plain }] of seen) {
      expectRightSized(p.body);
      slabs.add(p.gzipped().buffer);
      expect(gunzipSync(p.gzipped()).equals(p.body), key).toBe(true);
      expect(gzip.body.equals(p.gzipped()), key).toBe(true);
      expect(plain.body.equals(p.body), key).toBe(true);
    }
    expect(slabs.size).toBe(1);
    const list = asBody(service.responses.current()!.clustersList());
    expectRightSized(list.body);
    expectRightSized(list.gzipped());
  });

  it('drops the entries of a removed cluster from the shared store, and makes a new fleet listing', async () => {
    const bodies = service.responses.bodies.answers;
    for (const endpoint of ENDPOINTS) expect(bodies.kept(endpoint, 'c4')).toBeDefined();
    expect(bodies.size).toBe(4 * ENDPOINTS.length);
    const listBefore = asBody(service.responses.current()!.clustersList());

    await publish({}, ['clusters/c4.yaml']);
    for (const endpoint of ENDPOINTS) expect(bodies.kept(endpoint, 'c4')).toBeUndefined();
    expect(bodies.size).toBe(3 * ENDPOINTS.length);
    expect((await request(service.url, path('c4', 'namespaces'), { token: READ_TOKEN })).status).toBe(404);
    // The others are still kept and served as before.
    const c2 = seen.get('c2 namespaces')!;
    expect(bodies.kept('namespaces', 'c2')).toBe((c2.prepared.encoded as StoredBody).answer);
    expect(madeBy(prepared('c2', 'namespaces'))).toBe(c2.made);
    expect(prepared('c2', 'namespaces').body).toBe(c2.body);

    const listAfter = asBody(service.responses.current()!.clustersList());
    expect(listAfter.body).not.toBe(listBefore.body);
    expect(listAfter.body.toString()).not.toContain('"c4"');
  });
});

describe('encoded bodies across REST writes (memory backend, crud mode)', () => {
  let service: CrudService;
  beforeAll(async () => {
    service = await startCrud('memory');
  });
  afterAll(async () => {
    await service?.close();
  });

  it("a PATCH of one cluster keeps the other cluster's bytes and re-encodes the patched one", async () => {
    const DNS = { c0: 'bare.example.com', c1: 'c1.k8s.example.com' } as const;
    const get = (id: keyof typeof DNS, endpoint: string) =>
      request(service.url, `/api/v2/gitops/clusters/${DNS[id]}/${endpoint}`, {
        token: READ_TOKEN,
        headers: { 'accept-encoding': 'gzip' },
      });
    const preparedOf = (id: keyof typeof DNS, endpoint: PerClusterEndpoint) =>
      asBody(service.responses.current()!.forCluster(endpoint, DNS[id]));
    const before = new Map<string, { res: RawResponse; body: Buffer; gzipped: Buffer; made: number }>();
    for (const endpoint of ENDPOINTS) {
      for (const id of ['c0', 'c1'] as const) {
        const res = await get(id, endpoint);
        const p = preparedOf(id, endpoint);
        before.set(`${id} ${endpoint}`, { res, body: p.body, gzipped: p.gzipped(), made: madeBy(p) });
      }
    }
    const write = await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '9' } } });
    expect(write.status).toBe(200);
    const revision = service.store.published()!.snapshot.revision;
    expect(revision).not.toBe(before.get('c0 namespaces')!.res.headers['x-config-revision']);

    for (const endpoint of ENDPOINTS) {
      const res = await get('c0', endpoint);
      const was = before.get(`c0 ${endpoint}`)!;
      expect(res.headers['x-config-revision']).toBe(revision);
      expect(res.headers.etag).toBe(was.res.headers.etag);
      expect(preparedOf('c0', endpoint).body).toBe(was.body);
      expect(madeBy(preparedOf('c0', endpoint))).toBe(was.made);
      expect(preparedOf('c0', endpoint).gzipped().equals(was.gzipped)).toBe(true);
    }
    const pc = await get('c1', 'platform-components');
    expect(pc.headers.etag).not.toBe(before.get('c1 platform-components')!.res.headers.etag);
    expect(
      JSON.parse(gunzipSync(pc.body).toString()).inputs.find((i: { id: string }) => i.id === 'podinfo').patches
        .replicaCount,
    ).toBe('9');
    // Its other endpoints read the changed cluster record too, so they were encoded again, to equal bytes.
    expect(madeBy(preparedOf('c1', 'namespaces'))).not.toBe(before.get('c1 namespaces')!.made);
    expect((await get('c1', 'namespaces')).headers.etag).toBe(before.get('c1 namespaces')!.res.headers.etag);
  });
});

describe('EncodedBodyCache and ResponseTable on snapshots', () => {
  const snapshot = (): Snapshot => {
    const result = createSnapshot(
      {
        clusters: [
          { ...cluster(1, ['comp-a', 'comp-x'], [], []), patches: {} },
          { ...cluster(2, ['comp-a'], [], []), patches: {} },
        ],
        platform_components: [{ ...component('comp-a', '1.0.0'), cluster_env_enabled: false, depends_on: [] }],
        namespaces: [],
        rolebindings: [],
        rollouts: [],
      } as unknown as RecordSets,
      'r1',
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return result.snapshot;
  };
  const next = (s: Snapshot, ...args: Parameters<typeof withRecord> extends [Snapshot, ...infer R] ? R : never) => {
    const result = withRecord(s, ...args);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return result.snapshot;
  };
  const bodyOf = (responses: ResponseTable, id: string) =>
    asBody(responses.forCluster('platform-components', dnsOf(id))).body;

  it('encodes a response again when a definition appears for a reference that had none', () => {
    const bodies = new EncodedBodyCache();
    const r1 = snapshot();
    const first = new ResponseTable(r1, bodies);
    const [c1, c2] = [bodyOf(first, 'c1'), bodyOf(first, 'c2')];
    expect(JSON.parse(c1.toString()).inputs.map((i: { id: string }) => i.id)).toEqual(['comp-a']);

    const r2 = next(
      r1,
      'platform_components',
      'comp-x',
      { ...component('comp-x', '0.1.0'), cluster_env_enabled: false, depends_on: [] },
      'r2',
    );
    const second = new ResponseTable(r2, bodies);
    expect(bodyOf(second, 'c2')).toBe(c2);
    expect(bodyOf(second, 'c1')).not.toBe(c1);
    expect(JSON.parse(bodyOf(second, 'c1').toString()).inputs.map((i: { id: string }) => i.id)).toEqual([
      'comp-a',
      'comp-x',
    ]);
    expect(asBody(second.forCluster('platform-components', dnsOf('c2'))).headers(false)).toContain('r2');
  });

  it(
    "a rollout's release encodes again exactly its step's " + 'answers; a rollback gives the bytes and ETag of before',
    () => {
      const bodies = new EncodedBodyCache();
      const r1 = snapshot();
      const first = new ResponseTable(r1, bodies);
      const before = { c1: bodyOf(first, 'c1'), c2: bodyOf(first, 'c2') };
      const etag = (responses: ResponseTable, id: string) =>
        asBody(responses.forCluster('platform-components', dnsOf(id))).encoded.etag;
      const rollout = (released: number) => {
        const made = normalizeRollout({
          id: 'comp-a-2',
          component: 'comp-a',
          set: { oci_tag: '2.0.0' },
          waves: [
            { name: 'one', clusters: ['c1'] },
            { name: 'two', clusters: ['c2'] },
          ],
          released,
        });
        if (!made.ok) throw new Error(JSON.stringify(made.problems));
        return made.record;
      };
      const r2 = next(r1, 'rollouts', 'comp-a-2', rollout(1), 'r2');
      const second = new ResponseTable(r2, bodies);
      expect(bodyOf(second, 'c2')).toBe(before.c2);
      expect(bodyOf(second, 'c1')).not.toBe(before.c1);
      expect(JSON.parse(bodyOf(second, 'c1').toString()).inputs[0].source.oci_tag).toBe('2.0.0');
      // A poll of the revision looks the prepared answer up; nothing is made again.
      const made = bodies.answers.encodings;
      expect(madeBy(asBody(second.forCluster('platform-components', dnsOf('c1'))))).toBe(
        madeBy(asBody(second.forCluster('platform-components', dnsOf('c1')))),
      );
      expect(bodies.answers.encodings).toBe(made);

      const r3 = next(r2, 'rollouts', 'comp-a-2', rollout(0), 'r3');
      const third = new ResponseTable(r3, bodies);
      expect(bodyOf(third, 'c2')).toBe(before.c2);
      expect(bodyOf(third, 'c1').equals(before.c1)).toBe(true);
      expect(etag(third, 'c1')).toBe(etag(first, 'c1'));
    },
  );

  it('prepares a response once per revision: later lookups make nothing again', () => {
    const bodies = new EncodedBodyCache();
    const responses = new ResponseTable(snapshot(), bodies);
    const a = responses.forCluster('namespaces', dnsOf('c1'));
    expect(bodies.answers.encodings).toBe(1);
    expect(madeBy(asBody(responses.forCluster('namespaces', dnsOf('c1'))))).toBe(madeBy(asBody(a)));
    expect(madeBy(asBody(responses.forCluster('namespaces', 'C1.Fleet.Example.com.')))).toBe(madeBy(asBody(a)));
    expect(bodies.answers.encodings).toBe(1);
    // Its headers are written out for each poll (decision 0044): the same, never kept.
    expect(asBody(a).headers(true)).toEqual(asBody(a).headers(true));
  });

  it('keeps fleet listings while the clusters map is the same, and at most MAX_LISTS of them', () => {
    const bodies = new EncodedBodyCache();
    const r1 = snapshot();
    const list = asBody(new ResponseTable(r1, bodies).clustersList()).body;
    const r2 = next(
      r1,
      'platform_components',
      'comp-a',
      { ...component('comp-a', '1.0.1'), cluster_env_enabled: false, depends_on: [] },
      'r2',
    );
    expect(asBody(new ResponseTable(r2, bodies).clustersList()).body).toBe(list);
    const r3 = next(r2, 'clusters', 'c2', null, 'r3');
    const list3 = asBody(new ResponseTable(r3, bodies).clustersList()).body;
    expect(list3).not.toBe(list);
    expect(JSON.parse(list3.toString()).inputs.map((i: { id: string }) => i.id)).toEqual(['c1']);

    const responses = new ResponseTable(r3, bodies);
    const first = asBody(responses.clustersList({ shard: { index: 0, count: 1 } })).encoded;
    for (let n = 2; n <= MAX_LISTS + 1; n++) responses.clustersList({ shard: { index: 0, count: n } });
    // The oldest filter was let go; asking again makes it anew.
    expect(asBody(responses.clustersList({ shard: { index: 0, count: 1 } })).encoded).not.toBe(first);
  });

  it('copies a body out of a larger buffer, and keeps an oversized answer as its size only', () => {
    const small = encodeInputsDocument([{ id: 'x' }]);
    expect(small.kind).toBe('body');
    expectRightSized((small as { body: Buffer }).body);
    const big = encodeInputsDocument([{ id: 'x', blob: 'y'.repeat(1024 * 1024) }]);
    expect(big).toEqual({ kind: 'oversized', bytes: expect.any(Number) });
  });

  it('keeps plain bytes only up to its budget, and inflates a dropped one again, byte for byte', () => {
    const bodies = new EncodedBodyCache(4096);
    const responses = new ResponseTable(snapshot(), bodies);
    const first = new Map<string, Buffer>();
    for (const id of ['c1', 'c2']) {
      for (const endpoint of ENDPOINTS)
        first.set(`${id} ${endpoint}`, Buffer.from(asBody(responses.forCluster(endpoint, dnsOf(id))).body));
    }
    expect(bodies.plainBodies.bytes).toBeLessThanOrEqual(4096);
    // Walk them again: the ones evicted come back from their gzip copies, the same bytes.
    for (const [key, plain] of first) {
      const [id, endpoint] = key.split(' ') as [string, PerClusterEndpoint];
      const prepared = asBody(responses.forCluster(endpoint, dnsOf(id)));
      expect(prepared.body.equals(plain), key).toBe(true);
      expect(gunzipSync(prepared.gzipped()).equals(plain), key).toBe(true);
      expect(prepared.headers(false)).toContain(plain.length);
      expectRightSized(prepared.body);
    }
    expect(bodies.plainBodies.bytes).toBeLessThanOrEqual(4096);
  });
});

describe('PlainBytesBudget', () => {
  const holder = (): PlainBytesHolder => ({ plain: undefined, plainUsed: false });

  it('holds at most its budget, dropping the oldest first unless used since (second chance)', () => {
    const cache = new PlainBytesBudget(10);
    const [a, b, c, d] = [holder(), holder(), holder(), holder()];
    cache.admit(a, Buffer.alloc(4));
    cache.admit(b, Buffer.alloc(4));
    a.plainUsed = true; // a was read: it gets another round
    cache.admit(c, Buffer.alloc(4));
    expect(b.plain).toBeUndefined();
    expect(a.plain).toBeDefined();
    expect(c.plain).toBeDefined();
    expect(cache.bytes).toBe(8);
    cache.admit(d, Buffer.alloc(4)); // a went behind c when it got its second round: c is the oldest now
    expect(c.plain).toBeUndefined();
    expect([a.plain, d.plain].every(Boolean)).toBe(true);
    cache.admit(a, Buffer.alloc(11)); // larger than the budget: not kept, and its old bytes go
    expect(a.plain).toBeUndefined();
    expect(cache.bytes).toBe(4);
    expect(cache.size).toBe(1);
  });
});
