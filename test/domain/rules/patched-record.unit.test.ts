// A merge patch applied in place to a change set's own copy of a record (mergePatchInto), and
// the patched record checked by the parts the patch touched (patchedRecordProblems): the same
// record as applyMergePatch makes, the same problems as checking the whole record, and the
// record a revision holds never changed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../src/domain/problem.ts';
import { COLLECTIONS, type Collection } from '../../../src/domain/records.ts';
import { patchedRecordProblems } from '../../../src/domain/rules/patched-record.ts';
import { validateRecord } from '../../../src/domain/rules/record-schema.ts';
import {
  isKeywiseObject,
  resolveRef,
  type SchemaNode,
  withoutReachableRequired,
} from '../../../src/domain/rules/schema-shape.ts';
import { RECORD_SCHEMAS } from '../../../src/domain/rules/record-schema.ts';
import { deepFreeze } from '../../../src/domain/snapshot.ts';
import { applyMergePatch, mergePatchInto, patchShape } from '../../../src/domain/writes/merge-patch.ts';
import { anyJson, nastyString } from '../../fuzz/arbitraries.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';

/** Keys a patch of each collection's maps may use: valid ones, invalid ones, and a prototype's name. */
const mapKey = fc.oneof(
  fc.constantFrom('podinfo', 'traefik', 'replicaCount', 'ui.color', 'team', 'a/b', 'x.y', '-bad', '__proto__', ''),
  nastyString,
);
const leaf = fc.oneof(fc.constant(null), fc.string({ maxLength: 5 }), anyJson);
const nested = fc.dictionary(mapKey, fc.oneof(leaf, fc.dictionary(mapKey, leaf, { maxKeys: 3 })), { maxKeys: 4 });

function patchOf(collection: Collection): fc.Arbitrary<Record<string, unknown>> {
  const fields = [
    ...new Set((CRUD_DATA[collection] as object[]).flatMap((r) => Object.keys(r))),
    'credential_generation',
    'extra',
    '__proto__',
  ];
  return fc.array(fc.tuple(fc.constantFrom(...fields), fc.oneof(leaf, nested)), { maxLength: 4 }).map((entries) => {
    const patch: Record<string, unknown> = {};
    for (const [key, value] of entries)
      Object.defineProperty(patch, key, { value, enumerable: true, writable: true, configurable: true });
    return patch;
  });
}

/** Problems compared as the person reads them: where, and what. */
const seen = (problems: readonly Problem[]) => problems.map((p) => `${p.code} ${p.at.field}: ${p.message}`).sort();

describe('a record patched in place and checked by what the patch touched', () => {
  for (const collection of COLLECTIONS) {
    it(
      `${collection}: the same record as applyMergePatch, the same problems as the whole record's, the stored ` +
        `record untouched`,
      () => {
        const records = (CRUD_DATA[collection] as object[]).map((raw) => {
          const valid = validateRecord(collection, raw);
          if (!valid.ok) throw new Error(JSON.stringify(valid.problems));
          return deepFreeze(valid.record) as unknown as Record<string, unknown>;
        });
        fc.assert(
          fc.property(
            fc.constantFrom(...records),
            fc.array(patchOf(collection), { minLength: 1, maxLength: 3 }),
            (stored, patches) => {
              const owned = new WeakSet<object>();
              let draft: Record<string, unknown> = stored;
              let whole: unknown = stored;
              for (const patch of patches) {
                const shape = patchShape(draft, patch);
                const next = { ...draft };
                owned.add(next);
                mergePatchInto(next, patch, owned);
                whole = applyMergePatch(whole, patch);
                expect(next).toEqual(whole);
                const full = validateRecord(collection, whole);
                const touched = patchedRecordProblems(collection, next, shape);
                expect(seen(touched)).toEqual(full.ok ? [] : seen(full.problems));
                // A change set stops at the first write its record refuses.
                if (!full.ok) return;
                draft = next;
              }
            },
          ),
          { numRuns: 400 },
        );
      },
    );
  }

  it('reads the current schemas as keywise where patches merge, so that their checks stay small', () => {
    for (const collection of COLLECTIONS) {
      const root = RECORD_SCHEMAS[collection] as SchemaNode;
      expect(isKeywiseObject(resolveRef(root, root)), collection).toBe(true);
      expect(withoutReachableRequired(root).required, collection).toBeUndefined();
    }
    const cluster = withoutReachableRequired(RECORD_SCHEMAS.clusters as SchemaNode) as {
      properties: Record<string, SchemaNode>;
    };
    // The items of a list are replaced whole by a patch: their required keys stay.
    expect(JSON.stringify(cluster.properties.platform_components)).toContain('"required"');
  });
});
