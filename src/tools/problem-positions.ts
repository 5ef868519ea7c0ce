// Line and column for problems found in record files, from the YAML source of each file.
import type { Problem } from '../domain/problem.ts';
import { YamlPositions } from './yaml-positions.ts';

/** Problems about a mapping key itself rather than its value: they point at the key. */
const KEY_PROBLEMS = new Set<Problem['code']>(['unknown_field', 'invalid_key']);

/**
 * Fills in the line and column of each problem that names a file: the key or value its field
 * points at, else the nearest enclosing one that exists in the file, else 1:1.
 */
export async function locateProblems(problems: Problem[], textOf: (path: string) => Promise<string | undefined>): Promise<Problem[]> {
  const positions = new Map<string, YamlPositions | undefined>();
  const located: Problem[] = [];
  for (const p of problems) {
    const file = p.at.file;
    if (p.at.line !== undefined || file === undefined) {
      located.push(p);
      continue;
    }
    if (!positions.has(file)) {
      const text = await textOf(file);
      positions.set(file, text === undefined ? undefined : YamlPositions.of(text));
    }
    const at = positions.get(file)?.locate(p.at.field, KEY_PROBLEMS.has(p.code) ? 'key' : 'auto');
    located.push({ ...p, at: { ...p.at, line: at?.line ?? 1, column: at?.column ?? 1 } });
  }
  return located;
}
