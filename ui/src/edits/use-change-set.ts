// The page's one change set: kept in sessionStorage (a reload, or signing in again after the
// token expired, keeps the edits; another tab does not see them), and shared by every view
// through a hook. Explicitly signing out discards it.
import { useEffect, useState } from 'preact/hooks';
import { ChangeSet, type PendingRecord } from './change-set.ts';

const KEY = 'gitops-config-api.change-set';

let current: ChangeSet = load();
const listeners = new Set<(set: ChangeSet) => void>();

function load(): ChangeSet {
  try {
    const text = sessionStorage.getItem(KEY);
    return text ? new ChangeSet(JSON.parse(text) as PendingRecord[]) : new ChangeSet();
  } catch {
    return new ChangeSet();
  }
}

export function changeSet(): ChangeSet {
  return current;
}

export function setChangeSet(next: ChangeSet): void {
  current = next;
  try {
    if (next.size === 0) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(next.records));
  } catch {
    // Storage full or off: the set still lives as long as the page.
  }
  for (const listener of listeners) listener(next);
}

export function discardChangeSet(): void {
  setChangeSet(new ChangeSet());
}

/** The change set, re-rendering the component whenever it changes. */
export function useChangeSet(): ChangeSet {
  const [set, setSet] = useState(current);
  useEffect(() => {
    listeners.add(setSet);
    setSet(current);
    return () => {
      listeners.delete(setSet);
    };
  }, []);
  return set;
}
