// The namespaces projection (src/domain/projections/namespaces.ts): each namespace id of the
// cluster resolved to its definition, in the cluster's order, ids without one skipped, against
// the cases of ./cases/ (./projection-cases.ts says how they are laid out).
import { describe, expect, it } from 'vitest';
import { perClusterInputs } from '../../../src/domain/projections/index.ts';
import { namespaceInputs } from '../../../src/domain/projections/namespaces.ts';
import { asText, perClusterRows, projectionCases, strayExpectedFolders } from './projection-cases.ts';

describe('namespaceInputs', () => {
  it.each(perClusterRows('namespaces'))('$name', ({ snapshot, cluster, expected }) => {
    expect(asText(namespaceInputs(snapshot, cluster))).toBe(expected);
    // The table the read path, the response cache and the tools go through gives the same.
    expect(asText(perClusterInputs(snapshot, cluster, 'namespaces'))).toBe(expected);
  });

  it('has an expected answer for every cluster of every case, and none for a cluster a case does not have', () => {
    expect(
      perClusterRows('namespaces')
        .filter((row) => row.expected === undefined)
        .map((row) => row.name),
    ).toEqual([]);
    expect(strayExpectedFolders()).toEqual([]);
  });

  it('gives fresh objects: changing an answer changes neither the snapshot nor the next answer', () => {
    const { snapshot } = projectionCases().find((c) => c.name === 'overrides')!;
    const cluster = snapshot.clusters.get('c1')!;
    const first = namespaceInputs(snapshot, cluster);
    const teamA = first.find((input) => input.id === 'team-a')!;
    teamA.labels.team = 'changed';
    teamA.annotations.owner = 'changed';
    teamA.cluster.dns = 'changed';
    expect(namespaceInputs(snapshot, cluster)).not.toEqual(first);
    expect(snapshot.namespaces.get('team-a')!.labels.team).toBe('a');
  });
});
