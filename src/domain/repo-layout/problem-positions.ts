// Line and column for problems found in record files, from the YAML source of each file. Pure:
// the caller reads the texts (all of a revision's files for a tool, a bounded few for the
// service, which must stay cheap on a revision with thousands of broken files) and hands them in.
import type { Problem } from '../problem.ts';
import { YamlPositions } from './yaml-positions.ts';

/** Problems about a mapping key itself rather than its value: they point at the key. */
const KEY_PROBLEMS = new Set<Problem['code']>(['unknown_field', 'invalid_key']);

export interface LocateLimits {
  /** Only the first this many problems are located; the rest are left as they are. */
  maxProblems?: number;
  /** At most this many distinct files are asked for; problems in others are left as they are. */
  maxFiles?: number;
}

export interface LocateOptions {
  maxProblems?: number;
  /**
   * A problem whose file's text is not given: put at 1:1 (a tool, which has every file, and
   * whose files without a text are those it refused to read), or left without a position (the
   * service, which reads only some files and cannot always vouch for one).
   */
  withoutText: 'first-line' | 'unlocated';
}

function needsPosition(p: Problem): p is Problem & { at: { file: string } } {
  return p.at.line === undefined && p.at.file !== undefined;
}

/** The files whose text locating `problems` needs, in the order the problems first name them. */
export function filesToLocate(problems: readonly Problem[], limits: LocateLimits = {}): string[] {
  const files = new Set<string>();
  const maxFiles = limits.maxFiles ?? Number.POSITIVE_INFINITY;
  for (const p of problems.slice(0, limits.maxProblems ?? problems.length)) {
    if (files.size >= maxFiles) break;
    if (needsPosition(p)) files.add(p.at.file);
  }
  return [...files];
}

/**
 * Fills in the line and column of each problem that names a file whose text is given: the key
 * or value its field points at, else the nearest enclosing one that exists in the file, else
 * 1:1. Problems that carry a line already (a YAML syntax error) are kept as they are.
 */
export function locateProblems(
  problems: readonly Problem[],
  texts: ReadonlyMap<string, string>,
  options: LocateOptions,
): Problem[] {
  const positions = new Map<string, YamlPositions | undefined>();
  const maxProblems = options.maxProblems ?? problems.length;
  return problems.map((p, index) => {
    if (index >= maxProblems || !needsPosition(p)) return p;
    const file = p.at.file;
    const text = texts.get(file);
    if (text === undefined && options.withoutText === 'unlocated') return p;
    if (text !== undefined && !positions.has(file)) positions.set(file, YamlPositions.of(text));
    const at = positions.get(file)?.locate(p.at.field, KEY_PROBLEMS.has(p.code) ? 'key' : 'auto');
    return { ...p, at: { ...p.at, line: at?.line ?? 1, column: at?.column ?? 1 } };
  });
}
