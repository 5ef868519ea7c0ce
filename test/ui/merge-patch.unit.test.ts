// The web UI's merge patches (ui/src/edits/merge-patch.ts) and edits (record-edits.ts) keep
// every key as an own property, as the service's merge patch does (src/domain/writes/
// merge-patch.ts): a label, a Helm value path or a component id named `__proto__`,
// `constructor` or `prototype` is sent like any other key, and never read through an object's
// prototype. Pure code of the UI, checked against the service's own merge patch.
import { describe, expect, it } from 'vitest';
import { applyMergePatch as serviceApplies } from '../../src/domain/writes/merge-patch.ts';
import type { ClusterRecord, NamespaceRecord } from '../../ui/src/api/types.ts';
import { ChangeSet } from '../../ui/src/edits/change-set.ts';
import { applyMergePatch, mergePatch } from '../../ui/src/edits/merge-patch.ts';
import { applyEdits } from '../../ui/src/edits/record-edits.ts';

/** JSON as a request body or a stored record holds it: `__proto__` an ordinary own key. */
const json = <T = Record<string, unknown>>(text: string): T => JSON.parse(text) as T;
const text = (value: unknown) => JSON.stringify(value);

const team: NamespaceRecord = json('{"id":"team-a","labels":{"team":"a"},"annotations":{}}');

describe('merge patches of keys an object inherits', () => {
  it('patches labels named __proto__, constructor and prototype as own keys, as the service applies them', () => {
    const labels = '{"team":"a","__proto__":"x","constructor":"y","prototype":"z"}';
    const after = json(`{"id":"team-a","labels":${labels},"annotations":{}}`);
    const patch = mergePatch(team, after);
    expect(text(patch)).toBe('{"labels":{"__proto__":"x","constructor":"y","prototype":"z"}}');
    expect(Object.getPrototypeOf(patch.labels)).toBe(Object.prototype);
    expect(text(serviceApplies(team, json(text(patch))))).toBe(text(after));
    expect(text(applyMergePatch(team, patch))).toBe(text(after));
  });

  it('never swaps an object for the prototype of the patch or of the record it makes', () => {
    const after = json('{"id":"team-a","labels":{"team":"a"},"annotations":{"__proto__":{"polluted":"yes"}}}');
    const patch = mergePatch(team, after);
    expect(text(patch)).toBe('{"annotations":{"__proto__":{"polluted":"yes"}}}');
    const applied = applyMergePatch(team, json(text(patch))) as { annotations: Record<string, unknown> };
    expect(Object.getPrototypeOf(applied.annotations)).toBe(Object.prototype);
    expect(Object.keys(applied.annotations)).toEqual(['__proto__']);
    expect(text(applied)).toBe(text(serviceApplies(team, json(text(patch)))));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('removes such keys with null, and does not take what the record inherits for a value it holds', () => {
    const before = json('{"labels":{"__proto__":"x","constructor":"y","keep":"k"}}');
    const patch = mergePatch(before, json('{"labels":{"keep":"k"}}'));
    expect(text(patch)).toBe('{"labels":{"__proto__":null,"constructor":null}}');
    expect(text(applyMergePatch(before, patch))).toBe('{"labels":{"keep":"k"}}');
    expect(text(serviceApplies(before, patch))).toBe('{"labels":{"keep":"k"}}');
    // `toString` is not a value of an empty record: the patch sets it whole.
    expect(text(mergePatch({}, json('{"toString":{"a":"1"}}')))).toBe('{"toString":{"a":"1"}}');
  });
});

describe('edits of keys an object inherits', () => {
  const cluster: ClusterRecord = json(
    '{"id":"c1","cluster_name":"c1","cluster_dns":"c1.example.com","environment":"dev","credential_generation":0,' +
      '"platform_components":[{"id":"constructor","enabled":true}],"namespaces":[],"rolebindings":[],"patches":{}}',
  );

  it('sets a Helm value of a component whose id is constructor on the record, not on Object', () => {
    const edit = { kind: 'patch', component: 'constructor', key: 'replicaCount', value: '3' } as const;
    const { record } = applyEdits(cluster, [edit]);
    expect(text((record as ClusterRecord).patches)).toBe('{"constructor":{"replicaCount":"3"}}');
    expect((Object as unknown as Record<string, unknown>).replicaCount).toBeUndefined();
  });

  it('keeps a label named __proto__ typed by a person, and sends it in the change set', () => {
    const label = { kind: 'entry', field: 'labels', key: '__proto__' } as const;
    const set = new ChangeSet().edit('namespaces', 'team-a', team, '"etag"', { ...label, value: 'x' });
    const shown = text(set.current('namespaces', 'team-a', team));
    expect(shown).toBe('{"id":"team-a","labels":{"team":"a","__proto__":"x"},"annotations":{}}');
    const [write] = set.request('label').writes;
    expect(text(write.patch)).toBe('{"labels":{"__proto__":"x"}}');
    const labelled: NamespaceRecord = json('{"id":"team-a","labels":{"__proto__":"x"},"annotations":{}}');
    const removed = applyEdits(labelled, [{ ...label, value: null }]);
    expect(text(removed.record)).toBe('{"id":"team-a","labels":{},"annotations":{}}');
  });
});
