// An immutable map of records by id, iterating in id order, that a write changes by making a
// new map: the new one shares the old one's entries and keeps only what differs in a small
// layer on top. A REST write on a fleet of 10,000 clusters would otherwise copy a 10,000-entry
// map (twice: by id and by DNS name) for one record. When the layer grows past about the
// square root of the map's size it is folded into a new plain map, so lookups stay one or two
// hash probes and the copies cost, spread over the writes, a few entries each.
import { compareIds } from './ids.ts';
import type { Steps } from './steps.ts';

const GONE: unique symbol = Symbol('gone');
/** How many entries withAllInSteps folds between two pauses. */
const FOLDED_PER_STEP = 5000;

export class LayeredMap<V> implements ReadonlyMap<string, V> {
  readonly #base: ReadonlyMap<string, V>;
  /** Keys whose value differs from the base's: a new value, or GONE. */
  readonly #layer: ReadonlyMap<string, V | typeof GONE>;
  /** The keys of the layer that the base does not have, in id order. */
  readonly #added: readonly string[];
  readonly size: number;

  private constructor(
    base: ReadonlyMap<string, V>,
    layer: ReadonlyMap<string, V | typeof GONE>,
    added: readonly string[],
    size: number,
  ) {
    this.#base = base;
    this.#layer = layer;
    this.#added = added;
    this.size = size;
  }

  /** `map` (in id order) with `key` set to `value`, or removed when `value` is null. */
  static with<V>(map: ReadonlyMap<string, V>, key: string, value: V | null): ReadonlyMap<string, V> {
    const from = map instanceof LayeredMap ? (map as LayeredMap<V>) : new LayeredMap<V>(map, new Map(), [], map.size);
    return from.#with(key, value);
  }

  /**
   * `map` with every change of `changes` made (a value, or null to remove the key; each key
   * at most once), as one new map: one layer for all of them instead of one per change. In
   * steps: a layer past about √n is folded into a plain map a few thousand entries at a time
   * (at 50,000 clusters a fold takes tens of milliseconds).
   */
  static *withAllInSteps<V>(
    map: ReadonlyMap<string, V>,
    changes: Iterable<readonly [string, V | null]>,
  ): Steps<ReadonlyMap<string, V>> {
    const from = map instanceof LayeredMap ? (map as LayeredMap<V>) : new LayeredMap<V>(map, new Map(), [], map.size);
    const layer = new Map(from.#layer);
    const added = new Set(from.#added);
    let size = from.size;
    for (const [key, value] of changes) {
      const had = from.has(key);
      if (from.#base.has(key)) layer.set(key, value === null ? GONE : value);
      else if (value === null) {
        layer.delete(key);
        added.delete(key);
      } else {
        layer.set(key, value);
        added.add(key);
      }
      size += value === null ? (had ? -1 : 0) : had ? 0 : 1;
    }
    const next = new LayeredMap(from.#base, layer, [...added].sort(compareIds), size);
    if (layer.size <= Math.max(32, Math.sqrt(size))) return next;
    const plain = new Map<string, V>();
    for (const [key, value] of next.entries()) {
      plain.set(key, value);
      if (plain.size % FOLDED_PER_STEP === 0) yield;
    }
    return plain;
  }

  #with(key: string, value: V | null): ReadonlyMap<string, V> {
    const had = this.has(key);
    if (value === null && !had) return this;
    const layer = new Map(this.#layer);
    let added = this.#added;
    if (this.#base.has(key)) {
      layer.set(key, value === null ? GONE : value);
    } else if (value === null) {
      layer.delete(key);
      added = added.filter((k) => k !== key);
    } else {
      layer.set(key, value);
      if (!had) added = insertInOrder(added, key);
    }
    const size = this.size + (value === null ? -1 : had ? 0 : 1);
    const next = new LayeredMap(this.#base, layer, added, size);
    // Past about √n changes, a plain map again: lookups stay cheap, and folding costs little per write.
    return layer.size > Math.max(32, Math.sqrt(size)) ? new Map(next.entries()) : next;
  }

  /**
   * The keys whose values may differ between two maps of which one was made from the other
   * by `with` (or both from one map), without walking them: the keys of their layers. Undefined
   * when the maps do not share a base (one was folded, or they were built apart): then only a
   * walk of both tells.
   */
  static differingKeys<V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>): Set<string> | undefined {
    const baseOf = (m: ReadonlyMap<string, V>) => (m instanceof LayeredMap ? (m as LayeredMap<V>).#base : m);
    if (baseOf(a) !== baseOf(b)) return undefined;
    const keys = new Set<string>();
    for (const m of [a, b])
      if (m instanceof LayeredMap) for (const key of (m as LayeredMap<V>).#layer.keys()) keys.add(key);
    return keys;
  }

  get(key: string): V | undefined {
    const value = this.#layer.get(key);
    if (value !== undefined) return value === GONE ? undefined : value;
    return this.#base.get(key);
  }

  has(key: string): boolean {
    const value = this.#layer.get(key);
    if (value !== undefined) return value !== GONE;
    return this.#base.has(key);
  }

  *entries(): MapIterator<[string, V]> {
    const added = this.#added;
    let next = 0;
    for (const [key, value] of this.#base) {
      while (next < added.length && compareIds(added[next], key) < 0) {
        const k = added[next++];
        yield [k, this.#layer.get(k) as V];
      }
      const changed = this.#layer.get(key);
      if (changed === GONE) continue;
      yield [key, changed === undefined ? value : changed];
    }
    while (next < added.length) {
      const k = added[next++];
      yield [k, this.#layer.get(k) as V];
    }
  }

  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}

function insertInOrder(keys: readonly string[], key: string): string[] {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareIds(keys[mid], key) < 0) low = mid + 1;
    else high = mid;
  }
  return [...keys.slice(0, low), key, ...keys.slice(low)];
}
