// The maps a REST write makes: whatever sequence of sets and removals, a layered map answers
// get, has and size like a plain map with the same changes, and iterates in id order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIds } from '../../src/domain/ids.ts';
import { LayeredMap } from '../../src/domain/layered-map.ts';
import { runSteps } from '../../src/domain/steps.ts';

const key = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,6}$/);

describe('LayeredMap', () => {
  it('behaves as a plain map in id order, over any sequence of changes (folding its layer as it grows)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { maxLength: 200 }),
        fc.array(fc.tuple(key, fc.option(fc.nat(), { nil: null })), { maxLength: 300 }),
        (initial, changes) => {
          const model = new Map(initial.sort(compareIds).map((k, i) => [k, i]));
          let map: ReadonlyMap<string, number> = new Map(model);
          for (const [k, value] of changes) {
            map = LayeredMap.with(map, k, value);
            if (value === null) model.delete(k);
            else model.set(k, value);
            expect(map.size).toBe(model.size);
            expect(map.get(k)).toBe(model.get(k));
            expect(map.has(k)).toBe(model.has(k));
          }
          const ordered = [...model.entries()].sort(([a], [b]) => compareIds(a, b));
          expect([...map.entries()]).toEqual(ordered);
          expect([...map.keys()]).toEqual(ordered.map(([k]) => k));
          expect([...map.values()]).toEqual(ordered.map(([, v]) => v));
          const seen: string[] = [];
          map.forEach((_, k) => seen.push(k));
          expect(seen).toEqual(ordered.map(([k]) => k));
        },
      ),
      { numRuns: 300 },
    );
  });

  it(
    'makes many changes at once (withAllInSteps) as one after ' +
      'the other, folding in steps when the layer grows large',
    () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(key, { maxLength: 300 }),
          fc.uniqueArray(fc.tuple(key, fc.option(fc.nat(), { nil: null })), { maxLength: 300, selector: ([k]) => k }),
          (initial, changes) => {
            const base = new Map(initial.sort(compareIds).map((k, i) => [k, i]));
            // From a plain map, and from one with a layer already ('zz-extra' is longer than any generated key).
            for (const start of [base, LayeredMap.with(base, 'zz-extra', -1)]) {
              let one: ReadonlyMap<string, number> = start;
              for (const [k, value] of changes) one = LayeredMap.with(one, k, value);
              const all = runSteps(LayeredMap.withAllInSteps(start, changes));
              expect([...all.entries()]).toEqual([...one.entries()]);
              expect(all.size).toBe(one.size);
              for (const [k] of changes) expect(all.has(k)).toBe(one.has(k));
            }
          },
        ),
        { numRuns: 200 },
      );
    },
  );

  it('shares the unchanged entries: a change does not copy the map', () => {
    const base = new Map(Array.from({ length: 10_000 }, (_, i) => [`c${String(i).padStart(5, '0')}`, i]));
    const once = LayeredMap.with(base, 'c00042', -1);
    expect(once).toBeInstanceOf(LayeredMap);
    expect(once.get('c00042')).toBe(-1);
    expect(once.get('c00043')).toBe(43);
    expect(base.get('c00042')).toBe(42);
  });
});
