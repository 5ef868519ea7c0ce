// A refused revision's problems with the line and column of each in its record file, as
// `gitops-config validate` prints them, for /ready and the history of revisions. The texts
// come from the store (Backend.sourceTexts); a store without files has none, and its problems
// name no file. Bounded, so that a revision with 50,000 broken files costs what one with a few
// does: only the first LOCATED_PROBLEMS problems are located, in at most LOCATED_FILES files.
import type { Problem } from '../../domain/problem.ts';
import { filesToLocate, locateProblems } from '../../domain/repo-layout/problem-positions.ts';
import type { Backend } from '../backend.ts';

/** /ready and a refused revision's page show these first; a person fixes them first. */
export const LOCATED_PROBLEMS = 200;
export const LOCATED_FILES = 50;

export async function locateRefusedProblems(
  backend: Pick<Backend, 'sourceTexts'>,
  revision: string,
  problems: Problem[],
): Promise<Problem[]> {
  if (!backend.sourceTexts) return problems;
  const files = filesToLocate(problems, { maxProblems: LOCATED_PROBLEMS, maxFiles: LOCATED_FILES });
  if (files.length === 0) return problems;
  // Texts that cannot be read leave their problems as they were, without a line: the refusal
  // stands and is reported all the same.
  const texts = await backend.sourceTexts(revision, files).catch(() => new Map<string, string>());
  return locateProblems(problems, texts, { maxProblems: LOCATED_PROBLEMS, withoutText: 'unlocated' });
}
