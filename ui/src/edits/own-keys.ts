// Keys of a record's objects read and written as the object's own properties, whatever they are
// named, as the service's merge patch does (src/domain/writes/merge-patch.ts). A person may type
// any key (a label, a Helm value path) and ids may be `constructor` or `prototype`: read
// plainly, `labels.constructor` is Object's constructor when the record has no such label, and
// `labels.__proto__ = "x"` is dropped without a word, or swaps the object's prototype for an
// object value. Kept as own keys, they reach the service, which refuses a key it does not allow
// by name like any other. Pure.

/** The value the object itself holds under `key`; undefined when it holds none (whatever it inherits). */
export function ownValue(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Sets `key` as the object's own property: `__proto__` too is then a key like any other. */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
