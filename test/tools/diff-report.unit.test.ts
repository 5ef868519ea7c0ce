// The diff report on snapshots built in memory: order changes, grouping, size of the comment.
import { describe, expect, it } from 'vitest';
import type { Collection, RecordSets } from '../../src/domain/records.ts';
import { validateRecord } from '../../src/domain/rules/record-schema.ts';
import { createSnapshot, type Snapshot } from '../../src/domain/snapshot.ts';
import { diffFields } from '../../src/domain/input-diff.ts';
import { diffSnapshots } from '../../src/domain/revision-diff.ts';
import { renderDiff } from '../../src/tools/diff-render.ts';

function snapshot(raw: { [C in Collection]?: object[] }): Snapshot {
  const sets: Record<string, unknown[]> = {
    clusters: [],
    platform_components: [],
    namespaces: [],
    rolebindings: [],
    rollouts: [],
  };
  for (const [collection, list] of Object.entries(raw)) {
    for (const item of list) {
      const result = validateRecord(collection as Collection, item);
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      sets[collection].push(result.record);
    }
  }
  const built = createSnapshot(sets as unknown as RecordSets, 'test');
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

const entry = (id: string, tag = '1.0.0') => ({
  id,
  component_path: id,
  component_version: '1',
  oci_url: `oci://r/${id}`,
  oci_tag: tag,
});
const cluster = (i: number, components: string[], patches: object = {}) => ({
  id: `c${String(i).padStart(4, '0')}`,
  cluster_name: `k8s-${i}`,
  cluster_dns: `c${i}.example.com`,
  environment: ['dev', 'qa', 'uat', 'prod'][i % 4],
  platform_components: components.map((id) => ({ id, enabled: true })),
  patches,
});

describe('diff report', () => {
  it('sees an order change of the same inputs', () => {
    const catalog = [entry('a'), entry('b')];
    const before = snapshot({ platform_components: catalog, clusters: [cluster(1, ['a', 'b'])] });
    const after = snapshot({ platform_components: catalog, clusters: [cluster(1, ['b', 'a'])] });
    const report = diffSnapshots(before, after);
    expect(report.clusters).toHaveLength(1);
    expect(report.clusters[0].endpoints[0]).toMatchObject({
      endpoint: 'platform-components',
      added: [],
      removed: [],
      changed: [],
      reordered: true,
    });
    expect(renderDiff(report, 'text')).toContain('    order changed\n');
  });

  it('lists changed fields, added and removed ones included', () => {
    expect(
      diffFields(
        { id: 'x', patches: { a: '1', b: '2' }, depends_on: ['p'] },
        { id: 'x', patches: { a: '1', c: '3' }, depends_on: ['p', 'q'] },
      ),
    ).toEqual([
      { field: 'patches.c', path: ['patches', 'c'], new: '3' },
      { field: 'depends_on', path: ['depends_on'], old: ['p'], new: ['p', 'q'] },
      { field: 'patches.b', path: ['patches', 'b'], old: '2' },
    ]);
    expect(renderDiff(diffSnapshots(snapshot({}), snapshot({})), 'text')).toContain(
      "Summary: no cluster's responses change (0 clusters)",
    );
  });

  it("shows clusters with the same change once in Markdown, and stays under GitHub's comment limit", () => {
    const catalog = [entry('a'), entry('b')];
    const clusters = Array.from({ length: 3000 }, (_, i) => cluster(i, ['a', 'b'], { a: { k: String(i) } }));
    const before = snapshot({ platform_components: catalog, clusters });
    // One catalog bump for all, and a different patch on 1,000 of them.
    const after = snapshot({
      platform_components: [entry('a', '2.0.0'), entry('b')],
      clusters: clusters.map((c, i) => (i < 1000 ? { ...c, patches: { a: { k: `new-${i}` } } } : c)),
    });
    const report = diffSnapshots(before, after);
    expect(report.summary.clusters_changed).toBe(3000);
    expect(report.summary.by_environment).toEqual({ dev: 750, qa: 750, uat: 750, prod: 750 });
    const md = renderDiff(report, 'markdown');
    expect(md.length).toBeLessThan(65_536);
    // The 2,000 clusters with only the bump are one group, listed first.
    expect(md).toContain('#### 2000 clusters: `c1000`, `c1001`');
    expect(md).toContain('and 1970 more');
    expect(md).toMatch(/_…and \d+ more change groups \(\d+ clusters\), left out to keep this comment short/);
  });
});
