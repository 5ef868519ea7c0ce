// Where a problem is, as a person reads it. A preview reports the place by its parts (the
// record, the field, and the file, line and column where they are known); a revision's
// problems come with the place written out already (`file:line:col`, or the record and field).
import type { ProblemReport } from '../api/types.ts';

export function whereOf(problem: ProblemReport): string {
  const at = problem.at;
  if (typeof at === 'string') return at;
  if (at.file !== undefined) {
    if (at.line === undefined) return `${at.file}${at.field ? ` ${at.field}` : ''}`;
    return `${at.file}:${at.line}${at.column !== undefined ? `:${at.column}` : ''}`;
  }
  return `${at.record ? `${at.record.collection}/${at.record.id}` : ''}${at.field}`;
}
