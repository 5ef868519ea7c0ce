// The snapshot a revision is served from (src/domain/snapshot.ts): clusters found by their DNS
// name, records frozen once published, and the two refusals it makes itself.
import { describe, expect, it } from 'vitest';
import { createSnapshot, type Snapshot } from '../../src/domain/snapshot.ts';
import { canonicalSets, catalog, clusters, namespaces, rolebindings } from '../fixtures/records.ts';

function snapshot(): Snapshot {
  const built = createSnapshot(
    canonicalSets({ clusters, platform_components: catalog, namespaces, rolebindings }),
    'rev-1',
  );
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.snapshot;
}

const s = snapshot();

describe('snapshot', () => {
  it('finds clusters by DNS case-insensitively and without one trailing dot', () => {
    expect(s.clustersByDns.get('bare.example.com')?.id).toBe('c0');
  });

  it('is frozen: records cannot be changed after publishing', () => {
    expect(() => {
      (s.clusters.get('c1') as any).cluster_name = 'x';
    }).toThrow();
  });

  it('refuses two clusters with one DNS name (case-insensitive), naming both', () => {
    const sets = canonicalSets({
      clusters: [
        { id: 'a', cluster_name: 'a', cluster_dns: 'x.example.com', environment: 'dev' },
        { id: 'b', cluster_name: 'b', cluster_dns: 'X.example.com', environment: 'dev' },
      ],
    });
    const built = createSnapshot(sets, 'r');
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.problems[0].message).toContain('already used by cluster "a"');
  });

  it('refuses a reference listed twice (the consumer rejects duplicate input ids)', () => {
    const sets = canonicalSets({
      clusters: [
        {
          id: 'a',
          cluster_name: 'a',
          cluster_dns: 'a.example.com',
          environment: 'dev',
          namespaces: [{ id: 'n' }, { id: 'n' }],
        },
      ],
    });
    const built = createSnapshot(sets, 'r');
    expect(built.ok).toBe(false);
    if (!built.ok)
      expect(built.problems[0]).toMatchObject({
        code: 'duplicate_reference',
        at: { record: { collection: 'clusters', id: 'a' }, field: '/namespaces/1/id' },
      });
  });
});
