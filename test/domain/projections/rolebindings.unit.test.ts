// The rolebindings projection (src/domain/projections/rolebindings.ts): each rolebinding id of
// the cluster resolved to its definition, in the cluster's order, with its subjects' three
// fields, ids without one skipped, against the cases of ./cases/ (./projection-cases.ts says
// how they are laid out).
import { describe, expect, it } from 'vitest';
import { perClusterInputs } from '../../../src/domain/projections/index.ts';
import { roleBindingInputs } from '../../../src/domain/projections/rolebindings.ts';
import { asText, perClusterRows, projectionCases, strayExpectedFolders } from './projection-cases.ts';

describe('roleBindingInputs', () => {
  it.each(perClusterRows('rolebindings'))('$name', ({ snapshot, cluster, expected }) => {
    expect(asText(roleBindingInputs(snapshot, cluster))).toBe(expected);
    // The table the read path, the response cache and the tools go through gives the same.
    expect(asText(perClusterInputs(snapshot, cluster, 'rolebindings'))).toBe(expected);
  });

  it('has an expected answer for every cluster of every case, and none for a cluster a case does not have', () => {
    expect(
      perClusterRows('rolebindings')
        .filter((row) => row.expected === undefined)
        .map((row) => row.name),
    ).toEqual([]);
    expect(strayExpectedFolders()).toEqual([]);
  });

  it('gives fresh objects: changing an answer changes neither the snapshot nor the next answer', () => {
    const { snapshot } = projectionCases().find((c) => c.name === 'overrides')!;
    const cluster = snapshot.clusters.get('c1')!;
    const first = roleBindingInputs(snapshot, cluster);
    const admins = first.find((input) => input.id === 'admins')!;
    admins.subjects[0].name = 'changed';
    admins.subjects.pop();
    expect(roleBindingInputs(snapshot, cluster)).not.toEqual(first);
    expect(snapshot.rolebindings.get('admins')!.subjects.map((s) => s.name)).toEqual(['platform', 'ci']);
  });
});
