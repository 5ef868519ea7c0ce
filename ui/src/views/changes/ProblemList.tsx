// Problems as the service reports them: severity, where (file:line, or record and field), what.
import type { ProblemReport } from '../../api/types.ts';
import { whereOf } from '../../data/problem-place.ts';

export function ProblemList({ problems, label }: { problems: readonly ProblemReport[]; label: string }) {
  if (problems.length === 0) return null;
  return (
    <ul class="problems" aria-label={label}>
      {problems.map((problem) => (
        <li>
          <span class={`severity severity-${problem.severity}`}>{problem.severity}</span>{' '}
          <code>{whereOf(problem)}</code> {problem.message} <span class="muted">({problem.code})</span>
        </li>
      ))}
    </ul>
  );
}
