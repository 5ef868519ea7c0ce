// responsesGrownTooLarge, the rule a definition write is held to: a cluster whose answer the
// grown definition pushes over the consumer's limit refuses it. It settles most clusters by
// bounds (the cluster's own part plus its count of references times the largest definition
// it could be served); the answers must be those of sizing every referencing cluster exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES } from '../../../src/domain/projections/index.ts';
import type { Problem } from '../../../src/domain/problem.ts';
import type { DefinitionCollection } from '../../../src/domain/records.ts';
import { responseBytes, responsesGrownTooLarge, ENDPOINT_OF } from '../../../src/domain/rules/response-size.ts';
import { createSnapshot, type Snapshot, withRecord } from '../../../src/domain/snapshot.ts';
import { changeSetSteps } from '../../../src/domain/writes/change-set.ts';
import { canonicalSets } from '../../fixtures/records.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

function snapshotOf(raw: typeof CRUD_DATA, revision = 'r0'): Snapshot {
  const built = createSnapshot(canonicalSets(raw), revision);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

function grown(before: Snapshot, collection: DefinitionCollection, id: string, record: object): Snapshot {
  const after = withRecord(before, collection, id, record as never, 'r1');
  if (!after.ok) throw new Error(JSON.stringify(after.problems));
  return after.snapshot;
}

/** The rule as written down: every cluster that references the definition, sized exactly. */
function exactly(before: Snapshot, after: Snapshot, collection: DefinitionCollection, id: string): string[] {
  const endpoint = ENDPOINT_OF[collection];
  const over: string[] = [];
  for (const cluster of after.clusters.values()) {
    if (!cluster[collection].some((ref) => ref.id === id)) continue;
    const previous = before.clusters.get(cluster.id);
    const was = previous ? responseBytes(before, previous, endpoint) : 0;
    if (responseBytes(after, cluster, endpoint) >= MAX_RESPONSE_BYTES && was < MAX_RESPONSE_BYTES)
      over.push(cluster.id);
  }
  return over;
}

const names = (problems: Problem[]) => problems.map((p) => p.at.record?.id);

describe('responsesGrownTooLarge', () => {
  it('finds the clusters a grown definition pushes over the limit, as sizing each exactly does', () => {
    const KB = 1024;
    const fleet = fc.record({
      entries: fc.array(fc.integer({ min: 200 * KB, max: 330 * KB }), { minLength: 4, maxLength: 4 }),
      clusters: fc.array(
        fc.record({
          refs: fc.subarray([0, 1, 2, 3], { minLength: 3 }),
          filler: fc.constantFrom(0, 10 * KB, 50 * KB),
        }),
        { minLength: 1, maxLength: 5 },
      ),
      which: fc.nat(3),
      growth: fc.integer({ min: 1, max: 80 * KB }),
    });
    let pushedOver = 0;
    fc.assert(
      fc.property(fleet, ({ entries, clusters, which, growth }) => {
        const raw = structuredClone(CRUD_DATA);
        raw.rollouts = [];
        raw.platform_components = entries.map((size, i) => ({
          id: `entry-${i}`,
          component_path: 'p'.repeat(size),
          component_version: '1',
          oci_url: 'oci://example.com/charts',
          oci_tag: '1',
        }));
        raw.clusters = clusters.map(({ refs, filler }, i) => ({
          id: `c${i}`,
          cluster_name: `cluster-${i}`,
          cluster_dns: `c${i}.example.com`,
          environment: 'prod',
          platform_components: refs.filter((r) => r < entries.length).map((r) => ({ id: `entry-${r}`, enabled: true })),
          patches: filler === 0 ? {} : { [`entry-${refs[0]}`]: { filler: 'f'.repeat(filler) } },
        }));
        const before = snapshotOf(raw);
        const id = `entry-${which % entries.length}`;
        const entry = before.platform_components.get(id)!;
        const after = grown(before, 'platform_components', id, {
          ...entry,
          component_path: entry.component_path + 'q'.repeat(growth),
        });
        const found = responsesGrownTooLarge(before, after, 'platform_components', id);
        const expected = exactly(before, after, 'platform_components', id);
        expect(names(found)).toEqual(expected);
        if (expected.length > 0) pushedOver++;
        for (const p of found) expect(p).toMatchObject({ code: 'response_too_large', refersTo: { id } });
      }),
      { numRuns: 50 },
    );
    // The runs must reach the limit often enough to say something about it.
    expect(pushedOver).toBeGreaterThan(3);
  });

  it("counts a rollout's set as the catalog entry a member is served, however long it makes it", () => {
    // c1 uses podinfo alone, and is in the released wave of its rollout, whose set serves it
    // an oci_url that brings its answer to within a KB of the limit: far longer than any
    // catalog entry as it is. Growing podinfo's entry by 2 KB pushes c1 over.
    const raw = structuredClone(CRUD_DATA);
    raw.clusters[0] = { ...raw.clusters[0], platform_components: [{ id: 'podinfo', enabled: true }], patches: {} };
    const withUrl = (length: number) => {
      raw.rollouts = [
        { ...CRUD_DATA.rollouts[0], set: { oci_url: `oci://ghcr.io/${'p'.repeat(length)}` }, released: 1 },
      ];
      return snapshotOf(raw);
    };
    const margin = (s: Snapshot) => MAX_RESPONSE_BYTES - responseBytes(s, s.clusters.get('c1')!, 'platform-components');
    const before = withUrl(8_000 + margin(withUrl(8_000)) - 1_000);
    expect(margin(before)).toBeGreaterThan(0);
    expect(margin(before)).toBeLessThan(2_000);
    const podinfo = before.platform_components.get('podinfo')!;
    const after = grown(before, 'platform_components', 'podinfo', {
      ...podinfo,
      component_path: podinfo.component_path + 't'.repeat(2_000),
    });
    expect(names(responsesGrownTooLarge(before, after, 'platform_components', 'podinfo'))).toEqual(['c1']);
  });

  it('blames a namespace that grew on the clusters it pushes over, and not on those over before', () => {
    const raw = structuredClone(CRUD_DATA);
    const big = { filler: 'n'.repeat(500 * 1024) };
    raw.namespaces = [
      { id: 'team-a', annotations: big },
      { id: 'team-b', annotations: big },
    ];
    raw.clusters = [
      { ...raw.clusters[0], namespaces: [{ id: 'team-a' }] },
      { ...raw.clusters[1], namespaces: [{ id: 'team-a' }, { id: 'team-b' }] },
    ];
    const before = snapshotOf(raw);
    const after = grown(before, 'namespaces', 'team-a', {
      id: 'team-a',
      annotations: { filler: 'n'.repeat(950 * 1024) },
    });
    // c0 was over before (two namespaces of 500 KB), c1 is over now.
    expect(names(responsesGrownTooLarge(before, after, 'namespaces', 'team-a'))).toEqual(['c1']);
    expect(exactly(before, after, 'namespaces', 'team-a')).toEqual(['c1']);
    // A definition that did not grow is no reason to size anyone.
    expect(responsesGrownTooLarge(after, before, 'namespaces', 'team-a')).toEqual([]);
  });

  it("works out the fleet's parts for a grown definition in steps, before the check looks at them", () => {
    // 5,000 clusters each using podinfo: a write that makes podinfo's entry longer pauses at
    // least once per 1,000 of them more than one that keeps its length.
    const raw = structuredClone(CRUD_DATA);
    raw.rollouts = [];
    raw.clusters = Array.from({ length: 5000 }, (_, i) => ({
      id: `c${i}`,
      cluster_name: `cluster-${i}`,
      cluster_dns: `c${i}.example.com`,
      environment: 'prod',
      platform_components: [{ id: 'podinfo', enabled: true }],
    }));
    const before = snapshotOf(raw);
    const pauses = (oci_tag: string) => {
      const who = { kind: 'service', name: 'write-token' } as const;
      const steps = changeSetSteps(before, {
        role: 'write',
        who,
        writes: [
          {
            kind: 'merge-patch',
            collection: 'platform_components',
            id: 'podinfo',
            role: 'write',
            who,
            patch: { oci_tag },
          },
        ],
      });
      let n = 0;
      for (let step = steps.next(); !step.done; step = steps.next()) n++;
      return n;
    };
    const same = pauses('9.9.9');
    expect(pauses('9.9.9-longer')).toBeGreaterThanOrEqual(same + 5);
  });
});
