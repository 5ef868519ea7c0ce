// The message a change is stored with: the commit message in Git, the `message` of each of
// its audit_log rows in SQLite. A caller may give one (a change set's "message", a REST
// write's Gitops-Commit-Message header); otherwise it is made from the changes, so that
// every write reads the same in `git log`: "clusters: update demo-cluster-01", then the
// fields it changed.
import type { RecordChange } from '../backend.ts';

/**
 * The caller's message, tidied as `git commit` tidies one; without one (or an empty one), a message made from the
 * changes.
 */
export function changeSetMessage(changes: readonly RecordChange[], given?: string): string {
  const tidied = given === undefined ? '' : tidyMessage(given);
  if (tidied !== '') return tidied;
  if (changes.length === 1) {
    const [change] = changes as [RecordChange];
    return (
      `${change.collection}: ${change.action} ${change.id}\n\nChanged fields: ` + `${change.changedFields.join(', ')}\n`
    );
  }
  const lines = changes.map(
    (c) => `${c.collection}: ${c.action} ${c.id}${c.action === 'update' ? ` (${c.changedFields.join(', ')})` : ''}`,
  );
  return `change set of ${changes.length} records\n\n${lines.join('\n')}\n`;
}

/**
 * Trailing blanks of each line and empty lines at either end removed, runs of empty lines
 * made one, one newline at the end (git's own "strip" clean-up, without its comments); ""
 * when nothing is left.
 */
export function tidyMessage(message: string): string {
  const lines = message
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''));
  const kept: string[] = [];
  for (const line of lines) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}
