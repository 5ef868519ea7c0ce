// `gitops-config validate <repo-dir>`: every rule of the service (src/domain/rules), checked
// with the server's own loader and rules, reported as file:line:col lines a person (or
// GitHub) can jump to. Rendering: ./validate-render.ts.
import { problem, type Problem, recordName, withSources } from '../domain/problem.ts';
import type { Collection } from '../domain/records.ts';
import { checkRevision } from '../domain/rules/index.ts';
import { RecordFileLoader } from '../store/record-files/record-file-loader.ts';
import { ignoredWorkingTreeFiles, readWorkingTree } from '../store/record-files/working-tree.ts';
import { fileTexts, type LoadedRevision, loadRevision } from './load-revision.ts';
import { locateProblems } from './problem-positions.ts';

export interface ValidationReport {
  /** Sorted by file, line and column; every problem with a severity (warnings count as errors with --strict). */
  problems: Problem[];
  errors: number;
  warnings: number;
  files: number;
  records: Record<Collection, number>;
}

export class NotAConfigRepoError extends Error {}

/** Validates the working tree of a config repo directory. */
export async function validateRepo(dir: string, options: { strict?: boolean } = {}): Promise<ValidationReport> {
  const files = await readWorkingTree(dir);
  const ignored = await ignoredWorkingTreeFiles(dir);
  if (files.length === 0 && ignored.length === 0) {
    throw new NotAConfigRepoError(
      `${dir} holds no record files (clusters/*.yaml, platform_components/*.yaml, namespaces/*.yaml, rolebindings/*.yaml); is it the config repo?`,
    );
  }
  const loaded = await loadRevision(new RecordFileLoader(), files, 'validate');
  const problems: Problem[] = [
    ...loaded.loadProblems,
    ...withSources(skipConsequencesOfFailedFiles(loaded, checkRevision(loaded.snapshot)), loaded.sources),
    ...ignored.map((file) => ({
      ...problem('ignored_file', { field: '', file, line: 1, column: 1 }, 'is ignored: record files must end in .yaml or .yml'),
      severity: 'warning' as const,
    })),
  ];
  const located = (await locateProblems(problems, fileTexts(files))).map((p) =>
    options.strict && p.severity === 'warning' ? { ...p, severity: 'error' as const } : p,
  );
  located.sort(compareProblems);
  return {
    problems: located,
    errors: located.filter((p) => p.severity === 'error').length,
    warnings: located.filter((p) => p.severity === 'warning').length,
    files: files.length,
    records: {
      clusters: loaded.snapshot.clusters.size,
      platform_components: loaded.snapshot.platform_components.size,
      namespaces: loaded.snapshot.namespaces.size,
      rolebindings: loaded.snapshot.rolebindings.size,
    },
  };
}

/**
 * A file that failed to load would otherwise also show up as a dangling reference in every
 * cluster that uses it, and its catalog entries as unused: noise that hides the real error.
 */
function skipConsequencesOfFailedFiles(loaded: LoadedRevision, problems: Problem[]): Problem[] {
  const { failed } = loaded;
  const anyClusterFailed = [...failed].some((key) => key.startsWith('clusters/'));
  return problems.filter((p) => {
    if ((p.code === 'dangling_reference' || p.code === 'unknown_dependency') && p.refersTo) return !failed.has(recordName(p.refersTo));
    if (p.code === 'unused_catalog_entry') return !anyClusterFailed;
    return true;
  });
}

function compareProblems(a: Problem, b: Problem): number {
  const fa = a.at.file ?? '\uffff';
  const fb = b.at.file ?? '\uffff';
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (
    (a.at.line ?? 0) - (b.at.line ?? 0) ||
    (a.at.column ?? 0) - (b.at.column ?? 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}
