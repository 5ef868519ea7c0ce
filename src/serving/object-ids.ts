// Numbers for objects compared by identity. An answer is kept while the records it was made from
// are the same objects (snapshot updates keep unchanged records); kept as a list of these numbers
// in the answer's bytes (./answer-store.ts), a list costs 4 bytes a record instead of an array
// of references on the heap. Numbers are never given twice, so an object that took the place of
// one let go never passes for it.

/** The id of `undefined` (a reference to a definition that does not exist). */
export const NO_OBJECT = 0;
/** What peek() says of an object never numbered: no kept list holds it. */
export const UNNUMBERED = -1;
/** Ids fit an Int32; the holder starts anew before they run out. */
const LAST_ID = 0x7fffffff;

export class ObjectIds {
  #ids = new WeakMap<object, number>();
  #next = 1;

  /** The object's id, given now if it has none. */
  of(value: object | undefined): number {
    if (value === undefined) return NO_OBJECT;
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#next++;
      this.#ids.set(value, id);
    }
    return id;
  }

  /** The object's id if it has one, else UNNUMBERED. */
  peek(value: object | undefined): number {
    if (value === undefined) return NO_OBJECT;
    return this.#ids.get(value) ?? UNNUMBERED;
  }

  /** Whether `count` more ids may not be given: whoever keeps ids must forget them and start over. */
  runningOut(count: number): boolean {
    return this.#next + count >= LAST_ID;
  }
}
