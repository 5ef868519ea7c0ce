// Answers kept for a short while, shared by the views: the fleet page and a cluster's page
// both need the fleet, and going back and forth should not fetch 50,000 clusters each time.
// Everything is dropped at sign-out.

interface Entry {
  at: number;
  value: Promise<unknown>;
}

const entries = new Map<string, Entry>();

/** The value kept under `key` if younger than `maxAgeMs`, else a fresh load (a failed load is not kept). */
export function cached<T>(key: string, maxAgeMs: number, load: () => Promise<T>): Promise<T> {
  const entry = entries.get(key);
  if (entry && performance.now() - entry.at < maxAgeMs) return entry.value as Promise<T>;
  const value = load();
  entries.set(key, { at: performance.now(), value });
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}

export function forget(key?: string): void {
  if (key === undefined) entries.clear();
  else entries.delete(key);
}
