// Line and column for problems found on record files, from the YAML source of each file.
import type { ConfigFile } from '../domain/config-repo.ts';
import type { Problem } from '../domain/problems.ts';
import { problemKeyPath } from '../domain/record-validation.ts';
import { YamlPositions } from './yaml-positions.ts';

/**
 * Fills in the line and column of each problem that names a file: the key or value its path
 * points at, else the nearest enclosing one that exists in the file, else 1:1.
 */
export function locateProblems(problems: Problem[], files: ConfigFile[]): Problem[] {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const positions = new Map<string, YamlPositions | undefined>();
  return problems.map((p) => {
    if (p.line !== undefined || p.file === undefined) return p;
    if (!positions.has(p.file)) {
      const text = texts.get(p.file);
      positions.set(p.file, text === undefined ? undefined : YamlPositions.of(text));
    }
    const keyPath = problemKeyPath(p);
    const at = positions.get(p.file)?.locate(keyPath ?? p.path, keyPath ? 'key' : 'auto');
    return { ...p, line: at?.line ?? 1, column: at?.column ?? 1 };
  });
}
