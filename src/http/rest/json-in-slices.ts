// A large JSON answer written out in slices: one list of it item by item, with polls let in
// between (store/event-loop.ts). A preview of 1,000 clusters is a megabyte and more of JSON;
// written in one piece, every poll would wait for it. The text is what JSON.stringify makes
// of the whole (key order, no spaces).
import type { Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';

/** JSON.stringify(value), its property `list` (an array) written item by item. */
export function jsonInSlices(value: object, list: string): Promise<string> {
  return runInSlices(pieces(value, list));
}

function* pieces(value: object, list: string): Steps<string> {
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function') continue;
    if (key !== list || !Array.isArray(item)) {
      parts.push(`${JSON.stringify(key)}:${JSON.stringify(item)}`);
      continue;
    }
    const items: string[] = [];
    for (const element of item) {
      items.push(JSON.stringify(element) ?? 'null');
      yield;
    }
    parts.push(`${JSON.stringify(key)}:[${items.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}
