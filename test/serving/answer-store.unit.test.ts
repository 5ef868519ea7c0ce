// The compact store of answers (src/serving/answer-store.ts) on snapshots, without a server:
// a revision still walked after a newer one changed an answer gets its own bytes, never the
// newer's; a replaced answer's slab space and plain bytes are let go; a removed cluster's slot
// serves no one else's answer; an oversized answer is kept by its size.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/domain/records.ts';
import { createSnapshot, type Snapshot, withRecord } from '../../src/domain/snapshot.ts';
import { SLAB_BYTES } from '../../src/serving/byte-slabs.ts';
import { EncodedBodyCache } from '../../src/serving/encoded-body-cache.ts';
import { ResponseTable } from '../../src/serving/response-table.ts';
import type { ServedBody, ServedResponse } from '../../src/serving/served-response.ts';
import { StoredBody } from '../../src/serving/stored-body.ts';

const component = (tag: string, extra: Record<string, unknown> = {}) => ({
  id: 'comp-a',
  component_path: 'charts/comp-a',
  component_version: tag,
  oci_url: 'oci://registry.example.com/comp-a',
  oci_tag: tag,
  cluster_env_enabled: false,
  depends_on: [],
  ...extra,
});
const cluster = (n: number, patches: Record<string, Record<string, string>> = {}): Cluster =>
  ({
    id: `c${n}`,
    cluster_name: `cluster-${n}`,
    cluster_dns: `c${n}.fleet.example.com`,
    environment: 'prod',
    platform_components: [{ id: 'comp-a', enabled: true }],
    namespaces: [],
    rolebindings: [],
    patches,
  }) as unknown as Cluster;
const dnsOf = (n: number) => `c${n}.fleet.example.com`;
const PATH = (n: number) => `/api/v2/gitops/clusters/${dnsOf(n)}/platform-components`;

function first(): Snapshot {
  const made = createSnapshot(
    {
      clusters: [cluster(1), cluster(2)],
      platform_components: [component('1.0.0')],
      namespaces: [],
      rolebindings: [],
      rollouts: [],
    },
    'r1',
  );
  if (!made.ok) throw new Error(JSON.stringify(made.problems));
  return made.snapshot;
}

function next(s: Snapshot, ...args: Parameters<typeof withRecord> extends [Snapshot, ...infer R] ? R : never) {
  const made = withRecord(s, ...args);
  if (!made.ok) throw new Error(JSON.stringify(made.problems));
  return made.snapshot;
}

function body(prepared: ServedResponse | undefined): ServedBody {
  expect(prepared?.kind).toBe('body');
  return prepared as ServedBody;
}

const tagOf = (table: ResponseTable, n: number) => body(table.forCluster('platform-components', dnsOf(n))).etag;
const inputsOf = (prepared: ServedBody) => JSON.parse(gunzipSync(prepared.gzipped()).toString()).inputs;

describe('the answer store across response tables', () => {
  it('serves a table walked after a newer one changed an answer its own bytes, and keeps the newer', () => {
    const bodies = new EncodedBodyCache();
    const r1 = first();
    const old = new ResponseTable(r1, bodies);
    const oldAnswer = body(old.forCluster('platform-components', dnsOf(1)));
    old.rememberPath(PATH(1), dnsOf(1), oldAnswer);
    const oldTag = oldAnswer.etag;

    const r2 = next(r1, 'platform_components', 'comp-a', component('2.0.0'), 'r2');
    const now = new ResponseTable(r2, bodies);
    const nowTag = tagOf(now, 1);
    expect(nowTag).not.toBe(oldTag);
    const made = bodies.answers.encodings;

    // The old table's path no longer names a kept answer it confirmed: it is looked up again.
    expect(old.byPath(PATH(1))).toBeUndefined();
    const again = body(old.forCluster('platform-components', dnsOf(1)));
    expect(again.etag).toBe(oldTag);
    expect(again.revision).toBe('r1');
    expect(inputsOf(again)[0].source.oci_tag).toBe('1.0.0');
    expect(again.encoded).not.toBeInstanceOf(StoredBody);
    // What is kept is still the newest table's answer.
    expect(tagOf(now, 1)).toBe(nowTag);
    expect(bodies.answers.encodings).toBe(made);
    // An answer both revisions share is served to the old table from the store.
    const shared = body(now.forCluster('namespaces', dnsOf(2)));
    expect(body(old.forCluster('namespaces', dnsOf(2))).encoded).toBeInstanceOf(StoredBody);
    expect(body(old.forCluster('namespaces', dnsOf(2))).etag).toBe(shared.etag);
    expect(bodies.answers.encodings).toBe(made + 1);
  });

  it("lets a replaced answer's slab space and plain bytes go: a hundred revisions keep one slab", () => {
    const bodies = new EncodedBodyCache();
    let snapshot = first();
    for (let i = 0; i < 100; i++) {
      snapshot = next(snapshot, 'platform_components', 'comp-a', component(`1.0.${i}`), `r${i + 2}`);
      const table = new ResponseTable(snapshot, bodies);
      const answer = body(table.forCluster('platform-components', dnsOf(1)));
      // The plain bytes are the new answer's, not the ones the budget held for the answer before.
      expect(JSON.parse(answer.body.toString()).inputs[0].source.oci_tag).toBe(`1.0.${i}`);
      expect(answer.body.equals(gunzipSync(answer.gzipped()))).toBe(true);
    }
    expect(bodies.answers.size).toBe(1);
    expect(bodies.answers.encodings).toBe(100);
    expect(bodies.answers.slabBytes).toBe(SLAB_BYTES);
    expect(bodies.plainBodies.size).toBe(1);
  });

  it("does not serve a removed cluster's path the answer of the cluster that took its slot", () => {
    const bodies = new EncodedBodyCache();
    const r1 = first();
    const old = new ResponseTable(r1, bodies);
    // A kept answer's view reads the store when used: what it showed is taken down now.
    const before = [1, 2].map((n) => {
      const answer = body(old.forCluster('platform-components', dnsOf(n)));
      old.rememberPath(PATH(n), dnsOf(n), answer);
      return { answer: (answer.encoded as StoredBody).answer, etag: answer.etag, inputs: inputsOf(answer) };
    });

    // c1 and c2 go and c3 comes: it takes a slot the store let go.
    let r2 = next(r1, 'clusters', 'c1', null, 'r2');
    r2 = next(r2, 'clusters', 'c2', null, 'r2');
    const now = new ResponseTable(next(r2, 'clusters', 'c3', cluster(3), 'r2'), bodies);
    expect(bodies.answers.kept('platform-components', 'c1')).toBeUndefined();
    const c3 = (body(now.forCluster('platform-components', dnsOf(3))).encoded as StoredBody).answer;
    expect(before.map(({ answer }) => answer)).toContain(c3);
    [1, 2].forEach((n, i) => {
      expect(old.byPath(PATH(n))).toBeUndefined();
      const again = body(old.forCluster('platform-components', dnsOf(n)));
      expect(again.etag).toBe(before[i].etag);
      expect(inputsOf(again)).toEqual(before[i].inputs);
    });
  });

  it('keeps an oversized answer as its size: asked again, it is not made again', () => {
    const bodies = new EncodedBodyCache();
    const big = cluster(1, { 'comp-a': { note: 'x'.repeat(1_000_000) } });
    const r1 = next(first(), 'clusters', 'c1', big, 'r2');
    const table = new ResponseTable(r1, bodies);
    expect(table.forCluster('platform-components', dnsOf(1))).toEqual({ kind: 'oversized', bytes: expect.any(Number) });
    const made = bodies.answers.encodings;
    expect(table.forCluster('platform-components', dnsOf(1))?.kind).toBe('oversized');
    expect(bodies.answers.encodings).toBe(made);
  });
});
