// Sets of cluster ids kept small, for the history of revisions: a catalog bump changes the
// answers of most of a 50,000-cluster fleet, and a thousand such revisions kept as arrays of
// strings would hold fifty million references. Each id gets a number once; a set is the
// sorted numbers (4 bytes each) or, when that is smaller, one bit per number.

/** A set made by ClusterIdSets.of; its ids are read back through the same ClusterIdSets. */
export type ClusterIdSet = { kind: 'numbers'; numbers: Uint32Array } | { kind: 'bits'; bits: Uint8Array };

export class ClusterIdSets {
  #numbers = new Map<string, number>();
  #ids: string[] = [];

  /** The set of these ids. */
  of(ids: readonly string[]): ClusterIdSet {
    const numbers = new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) numbers[i] = this.#numberOf(ids[i]);
    numbers.sort();
    const bitBytes = Math.ceil(this.#ids.length / 8);
    if (numbers.byteLength <= bitBytes) return { kind: 'numbers', numbers };
    const bits = new Uint8Array(bitBytes);
    for (const n of numbers) bits[n >> 3] |= 1 << (n & 7);
    return { kind: 'bits', bits };
  }

  has(set: ClusterIdSet, id: string): boolean {
    const n = this.#numbers.get(id);
    if (n === undefined) return false;
    if (set.kind === 'bits') return ((set.bits[n >> 3] ?? 0) & (1 << (n & 7))) !== 0;
    let low = 0;
    let high = set.numbers.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = set.numbers[mid];
      if (at === n) return true;
      if (at < n) low = mid + 1;
      else high = mid - 1;
    }
    return false;
  }

  /** The ids of a set (in the order their numbers were given). */
  ids(set: ClusterIdSet): string[] {
    const ids: string[] = [];
    if (set.kind === 'numbers') for (const n of set.numbers) ids.push(this.#ids[n]);
    else for (let n = 0; n < set.bits.length * 8; n++) if (set.bits[n >> 3] & (1 << (n & 7))) ids.push(this.#ids[n]);
    return ids;
  }

  /** How many ids have a number. */
  get size(): number {
    return this.#ids.length;
  }

  /**
   * The same sets over numbers given afresh to the ids they still hold: the ids of clusters
   * that no kept set names any more are forgotten (a fleet whose cluster ids keep changing
   * would otherwise make the numbering grow without end).
   */
  renumbered(sets: readonly ClusterIdSet[]): { sets: ClusterIdSets; renumbered: ClusterIdSet[] } {
    const fresh = new ClusterIdSets();
    return { sets: fresh, renumbered: sets.map((set) => fresh.of(this.ids(set))) };
  }

  #numberOf(id: string): number {
    let n = this.#numbers.get(id);
    if (n === undefined) {
      n = this.#ids.length;
      this.#numbers.set(id, n);
      this.#ids.push(id);
    }
    return n;
  }
}
