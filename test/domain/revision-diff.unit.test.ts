// The report of a change and the clusters a revision changed are computed cheaply — clusters
// whose records and definitions are the same objects are passed over, and of a cluster whose
// record is the same only the inputs of references to other definitions are merged — but must
// be exactly what merging every cluster whole in both revisions gives. Checked against that
// plain computation on seeded random changes (CHANGE_SEED, printed), each made both by
// applying writes (snapshots that share objects) and by building the revision afresh.
import { describe, expect, it } from 'vitest';
import { CLUSTERS_PER_STEP, changedClusterIds, changedClusterIdsInSteps } from '../../src/domain/changed-clusters.ts';
import { diffFields } from '../../src/domain/input-diff.ts';
import {
  clusterSummaryInputs,
  MAX_RESPONSE_BYTES,
  PER_CLUSTER_ENDPOINTS,
  type PerClusterEndpoint,
} from '../../src/domain/projections/index.ts';
import type { Collection, RecordSets } from '../../src/domain/records.ts';
import { diffSnapshots } from '../../src/domain/revision-diff.ts';
import { plainChangedClusters } from '../helpers/plain-changed-clusters.ts';
import { validateRecord } from '../../src/domain/rules/record-schema.ts';
import { createSnapshot, type Snapshot } from '../../src/domain/snapshot.ts';
import { applyChangeSet } from '../../src/domain/writes/change-set.ts';
import type { WriteRequest } from '../../src/domain/writes/write-request.ts';

const SEED = Number(process.env.CHANGE_SEED ?? Date.now() % 1_000_000);
console.log(`CHANGE_SEED=${SEED}`);

/** mulberry32: small, seeded, good enough to pick changes. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENDPOINTS = Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[];
const who = { kind: 'service', name: 'write-token' } as const;

function fleet(rand: () => number): Record<Collection, Record<string, unknown>[]> {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const components = Array.from({ length: 8 }, (_, i) => ({
    id: `comp-${i}`,
    component_path: `charts/comp-${i}`,
    component_version: `1.${i}.0`,
    oci_url: `oci://r/comp-${i}`,
    oci_tag: `1.${i}.0`,
    depends_on: i > 0 && i % 3 === 0 ? [`comp-${i - 1}`] : [],
  }));
  const namespaces = Array.from({ length: 6 }, (_, i) => ({ id: `ns-${i}`, labels: { team: `t${i}` } }));
  const rolebindings = Array.from({ length: 3 }, (_, i) => ({ id: `rb-${i}`, role: 'view', subjects: [] }));
  const clusters = Array.from({ length: 30 }, (_, i) => {
    const refs = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(components).id))];
    return {
      id: `c-${String(i).padStart(2, '0')}`,
      cluster_name: `k-${i}`,
      cluster_dns: `c${i}.example.com`,
      environment: pick(['dev', 'qa', 'uat', 'prod']),
      platform_components: refs.map((id) => ({
        id,
        enabled: rand() < 0.8,
        ...(rand() < 0.2 ? { oci_tag: 'hotfix' } : {}),
      })),
      namespaces: [...new Set([pick(namespaces).id, pick(namespaces).id])].map((id) => ({ id })),
      rolebindings: rand() < 0.5 ? [{ id: pick(rolebindings).id }] : [],
      patches: refs.length > 0 && rand() < 0.5 ? { [refs[0]]: { replicaCount: String(i % 3) } } : {},
    };
  });
  return { clusters, platform_components: components, namespaces, rolebindings, rollouts: [] };
}

function snapshotOf(raw: Record<Collection, Record<string, unknown>[]>, revision: string): Snapshot {
  const sets = { clusters: [], platform_components: [], namespaces: [], rolebindings: [], rollouts: [] } as Record<
    Collection,
    unknown[]
  >;
  for (const [collection, list] of Object.entries(raw) as [Collection, Record<string, unknown>[]][]) {
    for (const item of list) {
      const result = validateRecord(collection, item);
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      sets[collection].push(result.record);
    }
  }
  const built = createSnapshot(sets as unknown as RecordSets, revision);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

/** One random write; some are refused by the rules, which is fine: they are left out. */
function randomWrite(rand: () => number, snapshot: Snapshot): WriteRequest {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const base = { role: 'write' as const, who };
  const cluster = pick([...snapshot.clusters.values()]);
  const component = pick([...snapshot.platform_components.keys()]);
  switch (Math.floor(rand() * 9)) {
    case 0:
      return {
        ...base,
        kind: 'merge-patch',
        collection: 'platform_components',
        id: component,
        patch: { oci_tag: `9.${Math.floor(rand() * 3)}.0` },
      };
    case 1:
      return {
        ...base,
        kind: 'merge-patch',
        collection: 'platform_components',
        id: component,
        patch: { component_version: 'latest', cluster_env_enabled: rand() < 0.5 },
      };
    case 2:
      return {
        ...base,
        kind: 'merge-patch',
        collection: 'namespaces',
        id: pick([...snapshot.namespaces.keys()]),
        patch: { labels: { team: `x${Math.floor(rand() * 3)}` } },
      };
    case 3:
      return {
        ...base,
        kind: 'merge-patch',
        collection: 'clusters',
        id: cluster.id,
        patch: { platform_components: [...cluster.platform_components].reverse() },
      };
    case 4:
      return {
        ...base,
        kind: 'merge-patch',
        collection: 'clusters',
        id: cluster.id,
        patch: { namespaces: rand() < 0.5 ? [] : [{ id: pick([...snapshot.namespaces.keys()]) }] },
      };
    case 5:
      return {
        ...base,
        kind: 'merge-patch',
        collection: 'clusters',
        id: cluster.id,
        patch: { cluster_dns: rand() < 0.5 ? cluster.cluster_dns.toUpperCase() : `moved-${cluster.cluster_dns}` },
      };
    case 6:
      return { ...base, kind: 'delete', collection: 'clusters', id: cluster.id };
    case 7:
      return { ...base, kind: 'create', collection: 'namespaces', body: { id: `ns-new-${Math.floor(rand() * 1000)}` } };
    default:
      return {
        ...base,
        kind: 'merge-patch',
        collection: 'clusters',
        id: cluster.id,
        patch: { environment: pick(['dev', 'prod']), patches: {} },
      };
  }
}

/** The field differences the old way: every leaf of both values in a map, then compared. */
function plainDiffFields(oldValue: unknown, newValue: unknown) {
  const leaves = (value: unknown, path: string[] = [], out = new Map<string, { path: string[]; value: unknown }>()) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
    else out.set(path.join('\u0000'), { path, value });
    return out;
  };
  const o = leaves(oldValue);
  const n = leaves(newValue);
  const changes: { field: string; path: string[]; old?: unknown; new?: unknown }[] = [];
  for (const [key, leaf] of n) {
    const previous = o.get(key);
    if (previous === undefined) changes.push({ field: leaf.path.join('.'), path: leaf.path, new: leaf.value });
    else if (JSON.stringify(previous.value) !== JSON.stringify(leaf.value))
      changes.push({ field: leaf.path.join('.'), path: leaf.path, old: previous.value, new: leaf.value });
  }
  for (const [key, leaf] of o)
    if (!n.has(key)) changes.push({ field: leaf.path.join('.'), path: leaf.path, old: leaf.value });
  return changes;
}

describe(`the report of a change (CHANGE_SEED=${SEED})`, () => {
  it('equals merging every cluster whole, for changes made by writes and built afresh', () => {
    const rand = random(SEED);
    let compared = 0;
    for (let round = 0; round < 60; round++) {
      const raw = fleet(rand);
      const before = snapshotOf(raw, 'before');
      const writes = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => randomWrite(rand, before));
      const applied = applyChangeSet(before, { role: 'write', who, writes }, { shrinkGuard: false });
      if (!applied.ok) continue;
      const afresh = snapshotOf(
        Object.fromEntries(
          (Object.keys(raw) as Collection[]).map((c) => [
            c,
            [...(applied.snapshot[c] as unknown as ReadonlyMap<string, Record<string, unknown>>).values()],
          ]),
        ) as Record<Collection, Record<string, unknown>[]>,
        'after',
      );
      for (const after of [applied.snapshot, afresh]) {
        const expected = plainChangedClusters(before, after);
        expect(changedClusterIds(before, after), `round ${round}`).toEqual(expected);
        const report = diffSnapshots(before, after);
        expect(report.clusters.map((c) => c.id)).toEqual(expected);
        expect(report).toEqual(diffSnapshots(before, afresh));
        for (const cluster of report.clusters) {
          for (const e of cluster.endpoints) {
            const old = before.clusters.get(cluster.id);
            const now = after.clusters.get(cluster.id);
            const oldInputs = old ? PER_CLUSTER_ENDPOINTS[e.endpoint](before, old) : undefined;
            const newInputs = now ? PER_CLUSTER_ENDPOINTS[e.endpoint](after, now) : undefined;
            expect(e.before).toBe(oldInputs ? oldInputs.length : null);
            expect(e.after).toBe(newInputs ? newInputs.length : null);
            expect(e.oversized).toBe(
              newInputs !== undefined && Buffer.byteLength(JSON.stringify({ inputs: newInputs })) >= MAX_RESPONSE_BYTES,
            );
            const byId = new Map((oldInputs ?? []).map((i) => [i.id, i]));
            for (const change of e.changed)
              expect(change.fields).toEqual(
                plainDiffFields(
                  byId.get(change.id),
                  newInputs!.find((i) => i.id === change.id),
                ),
              );
          }
        }
        expect(report.listing.added.length + report.listing.removed.length + report.listing.changed.length > 0).toBe(
          JSON.stringify(clusterSummaryInputs(before)) !== JSON.stringify(clusterSummaryInputs(after)),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it(
    'finds the clusters a chain of writes changed, between ' +
      'any two of its revisions, as merging every cluster whole',
    () => {
      // Revisions made by writes share their maps' base until a fold: the clusters written are
      // then read from the maps' layers instead of a walk of the fleet.
      const rand = random(SEED + 1);
      let compared = 0;
      for (let round = 0; round < 20; round++) {
        const chain = [snapshotOf(fleet(rand), 'r0')];
        for (let step = 1; step < 12; step++) {
          const writes = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => randomWrite(rand, chain.at(-1)!));
          const applied = applyChangeSet(chain.at(-1)!, { role: 'write', who, writes }, { shrinkGuard: false });
          if (applied.ok) chain.push(applied.snapshot);
        }
        for (let i = 0; i < chain.length; i++) {
          for (let j = i + 1; j < chain.length; j++) {
            expect(changedClusterIds(chain[i], chain[j]), `round ${round}, ${i} -> ${j}`).toEqual(
              plainChangedClusters(chain[i], chain[j]),
            );
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(200);
    },
  );

  it(
    'works out the clusters a catalog change reached in steps ' + 'of CLUSTERS_PER_STEP clusters, with the same answer',
    () => {
      const raw = fleet(random(SEED + 2));
      const base = raw.clusters[0];
      // 2,500 clusters, each using comp-0: a change to comp-0 reaches every one of them.
      const many = Array.from({ length: 2500 }, (_, i) => ({
        ...base,
        id: `m-${String(i).padStart(4, '0')}`,
        cluster_dns: `m${i}.example.com`,
        platform_components: [{ id: 'comp-0', enabled: true }],
        patches: {},
      }));
      const before = snapshotOf({ ...raw, clusters: many }, 'before');
      const applied = applyChangeSet(before, {
        role: 'write',
        who,
        writes: [
          {
            kind: 'merge-patch',
            collection: 'platform_components',
            id: 'comp-0',
            patch: { oci_tag: '9.9.9' },
            role: 'write',
            who,
          },
        ],
      });
      if (!applied.ok) throw new Error(JSON.stringify(applied.refusal));
      const steps = changedClusterIdsInSteps(before, applied.snapshot);
      let pauses = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) pauses++;
      expect(pauses).toBe(Math.floor(2500 / CLUSTERS_PER_STEP));
      expect(step.value).toHaveLength(2500);
      expect(step.value).toEqual(changedClusterIds(before, applied.snapshot));
    },
  );

  it('finds the same field differences as comparing every leaf', () => {
    const rand = random(SEED + 1);
    const value = (depth: number): unknown => {
      const r = rand();
      if (depth > 2 || r < 0.3) return pickLeaf();
      if (r < 0.4) return [pickLeaf(), pickLeaf()];
      return Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 4) }, () => [`k${Math.floor(rand() * 4)}`, value(depth + 1)]),
      );
    };
    const pickLeaf = () => [null, 'a', 'b', 1, true, [], ['a']][Math.floor(rand() * 7)];
    for (let i = 0; i < 2000; i++) {
      const a = value(0);
      const b = rand() < 0.3 ? a : value(0);
      expect(diffFields(a, b), JSON.stringify([a, b])).toEqual(plainDiffFields(a, b));
    }
  });

  it('merges each input of an endpoint from its own reference alone, which the cheap way relies on', () => {
    const rand = random(SEED + 2);
    for (let round = 0; round < 20; round++) {
      const snapshot = snapshotOf(fleet(rand), 'x');
      for (const cluster of snapshot.clusters.values()) {
        for (const endpoint of ENDPOINTS) {
          const field = (
            {
              'platform-components': 'platform_components',
              namespaces: 'namespaces',
              rolebindings: 'rolebindings',
            } as const
          )[endpoint];
          const whole = PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster);
          const refs = cluster[field] as { id: string }[];
          const some = refs.filter(() => rand() < 0.5);
          const part = PER_CLUSTER_ENDPOINTS[endpoint](snapshot, { ...cluster, [field]: some });
          expect(part).toEqual(whole.filter((input) => some.some((ref) => ref.id === input.id)));
        }
      }
    }
  });
});
