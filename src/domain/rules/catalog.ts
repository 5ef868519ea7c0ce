// Rules of the catalog: depends_on names existing entries, not the entry itself, and forms no
// cycle; an entry no cluster uses is worth a warning.
import { type Problem, problem } from '../problem.ts';
import type { PlatformComponent } from '../records.ts';
import type { Snapshot } from '../snapshot.ts';
import { analyzeFleet } from './fleet-analysis.ts';

const at = (id: string, field: string) => ({ record: { collection: 'platform_components' as const, id }, field });

/** Unknown and self depends_on of one entry. */
export function dependencyProblems(snapshot: Snapshot, entry: PlatformComponent): Problem[] {
  const problems: Problem[] = [];
  entry.depends_on.forEach((dep, index) => {
    if (dep === entry.id) {
      problems.push(problem('self_dependency', at(entry.id, `/depends_on/${index}`), 'depends on itself'));
    } else if (!snapshot.platform_components.has(dep)) {
      problems.push(
        problem(
          'unknown_dependency',
          at(entry.id, `/depends_on/${index}`),
          `depends on "${dep}", which is not in the catalog`,
          {
            refersTo: { collection: 'platform_components', id: dep },
          },
        ),
      );
    }
  });
  return problems;
}

/**
 * One problem per cycle, placed at the entry `from` when given (the one a write changed), else at the cycle's smallest
 * id.
 */
export function cycleProblems(snapshot: Snapshot, from?: string): Problem[] {
  const problems: Problem[] = [];
  for (const cycle of dependencyCycles(snapshot)) {
    if (from !== undefined && !cycle.includes(from)) continue;
    const start = from === undefined ? 0 : cycle.indexOf(from);
    const path = [...cycle.slice(start), ...cycle.slice(0, start)];
    problems.push(
      problem(
        'dependency_cycle',
        at(path[0], '/depends_on'),
        `depends_on forms a cycle: ${[...path, path[0]].join(' -> ')}`,
        {
          identity: [...cycle].sort().join(' '),
        },
      ),
    );
  }
  return problems;
}

/** Each cycle once (self-dependencies are reported apart), starting at its smallest id. */
export function dependencyCycles(snapshot: Snapshot): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of snapshot.platform_components.get(id)?.depends_on ?? []) {
      if (dep === id || !snapshot.platform_components.has(dep)) continue;
      const seen = state.get(dep);
      if (seen === 'visiting') {
        const cycle = stack.slice(stack.indexOf(dep));
        const first = cycle.indexOf([...cycle].sort()[0]);
        cycles.push([...cycle.slice(first), ...cycle.slice(0, first)]);
      } else if (seen === undefined) {
        visit(dep);
      }
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of snapshot.platform_components.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

/** Catalog ids whose depends_on names `id`. */
export function dependents(snapshot: Snapshot, id: string): string[] {
  return [...snapshot.platform_components.values()].filter((c) => c.depends_on.includes(id)).map((c) => c.id);
}

export function unusedEntries(snapshot: Snapshot): Problem[] {
  const uses = analyzeFleet(snapshot).componentUses;
  return [...snapshot.platform_components.keys()]
    .filter((id) => !uses.get(id))
    .map((id) => ({
      ...problem('unused_catalog_entry', at(id, ''), `catalog entry "${id}" is used by no cluster`),
      severity: 'warning' as const,
    }));
}
