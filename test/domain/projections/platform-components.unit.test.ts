// The platform-components projection (src/domain/projections/platform-components.ts): one
// input per reference of the cluster, in its order, the catalog entry merged with the
// reference's overrides and the cluster's patches (rules 1-5 in the file), against the cases
// of ./cases/ (./projection-cases.ts says how they are laid out).
import { describe, expect, it } from 'vitest';
import { perClusterInputs } from '../../../src/domain/projections/index.ts';
import { platformComponentInputs } from '../../../src/domain/projections/platform-components.ts';
import { asText, perClusterRows, projectionCases, strayExpectedFolders } from './projection-cases.ts';

describe('platformComponentInputs', () => {
  it.each(perClusterRows('platform-components'))('$name', ({ snapshot, cluster, expected }) => {
    expect(asText(platformComponentInputs(snapshot, cluster))).toBe(expected);
    // The table the read path, the response cache and the tools go through gives the same.
    expect(asText(perClusterInputs(snapshot, cluster, 'platform-components'))).toBe(expected);
  });

  it('has an expected answer for every cluster of every case, and none for a cluster a case does not have', () => {
    expect(
      perClusterRows('platform-components')
        .filter((row) => row.expected === undefined)
        .map((row) => row.name),
    ).toEqual([]);
    expect(strayExpectedFolders()).toEqual([]);
  });

  it('gives fresh objects: changing an answer changes neither the snapshot nor the next answer', () => {
    const { snapshot } = projectionCases().find((c) => c.name === 'overrides')!;
    const cluster = snapshot.clusters.get('c1')!;
    const first = platformComponentInputs(snapshot, cluster);
    const podinfo = first.find((input) => input.id === 'podinfo')!;
    podinfo.depends_on.push('changed');
    podinfo.patches.replicaCount = 'changed';
    podinfo.cluster.name = 'changed';
    const traefik = first.find((input) => input.id === 'traefik')!;
    traefik.depends_on.push('changed');
    expect(platformComponentInputs(snapshot, cluster)).not.toEqual(first);
    expect(snapshot.platform_components.get('traefik')!.depends_on).toEqual(['cert-manager']);
    expect(cluster.patches.podinfo.replicaCount).toBe('3');
    expect(cluster.cluster_name).toBe('cluster-one');
  });
});
