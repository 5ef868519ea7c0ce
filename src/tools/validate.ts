// `gitops-config validate <repo-dir>`: every check of product-decisions §5 and §10, with the
// code the server runs, reported as file:line:col lines a person (or GitHub) can jump to.
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { attachFiles } from '../domain/config-repo.ts';
import type { Problem } from '../domain/problems.ts';
import { COLLECTIONS, type Collection } from '../domain/records.ts';
import { validateSnapshot } from '../domain/snapshot-validation.ts';
import { readRecordFiles } from '../store/git/working-tree.ts';
import { type LoadedRevision, loadRevision } from './load-revision.ts';
import { locateProblems } from './problem-positions.ts';

export type Severity = 'error' | 'warning';

/** A problem as the validator reports it: always with a severity, and a position when it has a file. */
export interface ReportedProblem {
  /** Path inside the config repo, with forward slashes. */
  file?: string;
  line?: number;
  column?: number;
  severity: Severity;
  /** Where inside the record ("/platform_components/2/id"); "" for the whole record. */
  path: string;
  message: string;
}

export interface ValidationReport {
  problems: ReportedProblem[];
  errors: number;
  warnings: number;
  files: number;
  records: Record<Collection, number>;
}

const REFERENCE_FIELDS: Record<string, Exclude<Collection, 'clusters'>> = {
  platform_components: 'platform_components',
  namespaces: 'namespaces',
  rolebindings: 'rolebindings',
};

export class NotAConfigRepoError extends Error {}

/** Validates the working tree of a config repo directory. */
export async function validateRepo(dir: string, options: { strict?: boolean } = {}): Promise<ValidationReport> {
  const files = (await readRecordFiles(dir)).map((f) => ({ path: f.path, text: f.bytes.toString('utf8') }));
  const ignored = await ignoredFiles(dir);
  if (files.length === 0 && ignored.length === 0) {
    throw new NotAConfigRepoError(
      `${dir} holds no record files (clusters/*.yaml, platform_components/*.yaml, namespaces/*.yaml, rolebindings/*.yaml); is it the config repo?`,
    );
  }
  const loaded = loadRevision(files, 'validate');
  const problems: Problem[] = [
    ...loaded.loadProblems,
    ...attachFiles(skipConsequencesOfFailedFiles(loaded, validateSnapshot(loaded.snapshot)), loaded.fileOf),
    ...ignored.map((file) => ({
      file,
      path: '',
      line: 1,
      column: 1,
      severity: 'warning' as const,
      message: 'is ignored: record files must end in .yaml or .yml',
    })),
  ];
  const reported = locate(problems, loaded).map((p) => (options.strict && p.severity === 'warning' ? { ...p, severity: 'error' as const } : p));
  reported.sort(compareProblems);
  return {
    problems: reported,
    errors: reported.filter((p) => p.severity === 'error').length,
    warnings: reported.filter((p) => p.severity === 'warning').length,
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
  const { failedIds, snapshot } = loaded;
  const anyClusterFailed = failedIds.clusters.size > 0;
  return problems.filter((p) => {
    const reference = /^clusters\/([^/]+)\/(platform_components|namespaces|rolebindings)\/(\d+)\/id$/.exec(p.path);
    if (reference) {
      const field = reference[2] as 'platform_components' | 'namespaces' | 'rolebindings';
      const ref = snapshot.clusters.get(reference[1]!)?.[field][Number(reference[3])];
      return !(ref && failedIds[REFERENCE_FIELDS[reference[2]!]!].has(ref.id));
    }
    const dependency = /^platform_components\/([^/]+)\/depends_on\/(\d+)$/.exec(p.path);
    if (dependency) {
      const dep = snapshot.platform_components.get(dependency[1]!)?.depends_on[Number(dependency[2])];
      return !(dep !== undefined && failedIds.platform_components.has(dep));
    }
    if (p.severity === 'warning' && anyClusterFailed && /^platform_components\/[^/]+$/.test(p.path)) return false;
    return true;
  });
}

function locate(problems: Problem[], loaded: LoadedRevision): ReportedProblem[] {
  return locateProblems(problems, loaded.files).map((p) => ({
    file: p.file,
    line: p.line,
    column: p.column,
    severity: p.severity ?? 'error',
    path: p.path,
    message: p.message,
  }));
}


/** Files in the record folders that the service skips because of their extension. */
async function ignoredFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const collection of COLLECTIONS) {
    let entries;
    try {
      entries = await readdir(join(dir, collection), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith('.') || /\.ya?ml$/.test(entry.name)) continue;
      found.push(relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
    }
  }
  return found;
}

function compareProblems(a: ReportedProblem, b: ReportedProblem): number {
  const fa = a.file ?? '\uffff';
  const fb = b.file ?? '\uffff';
  if (fa !== fb) return fa < fb ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}

/** "/platform_components/2/id" -> "platform_components[2].id", the way people name a field. */
export function fieldName(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** "clusters/a.yaml:7:14: error: environment: must be one of: dev, qa, uat, prod" */
export function problemLine(p: Problem): string {
  const where = p.file ? `${p.file}:${p.line ?? 1}:${p.column ?? 1}: ` : '';
  return `${where}${p.severity ?? 'error'}: ${describe(p)}`;
}

/** The message with the field it is about, unless the message names it already. */
export function describe(p: Problem): string {
  const field = fieldName(p.message.startsWith('unknown field "') ? p.path.slice(0, p.path.lastIndexOf('/')) : p.path);
  return field === '' ? p.message : `${field}: ${p.message}`;
}

export type ValidateFormat = 'text' | 'json' | 'github';

export function renderValidation(report: ValidationReport, format: ValidateFormat, annotationBase?: (file: string) => string): string {
  const lines: string[] = [];
  if (format === 'json') {
    return `${JSON.stringify(
      {
        valid: report.errors === 0,
        errors: report.errors,
        warnings: report.warnings,
        files: report.files,
        records: report.records,
        problems: report.problems.map((p) => ({
          file: p.file ?? null,
          line: p.line ?? null,
          column: p.column ?? null,
          severity: p.severity,
          path: p.path,
          message: describe(p),
        })),
      },
      null,
      2,
    )}\n`;
  }
  for (const p of report.problems) {
    if (format === 'github') {
      const props = p.file
        ? [`file=${escapeProperty((annotationBase ?? ((f) => f))(p.file))}`, `line=${p.line ?? 1}`, `col=${p.column ?? 1}`]
        : [];
      props.push(`title=${escapeProperty(`gitops-config ${p.severity}`)}`);
      lines.push(`::${p.severity} ${props.join(',')}::${escapeData(describe(p))}`);
    } else {
      lines.push(problemLine(p));
    }
  }
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

export function summaryLine(report: ValidationReport): string {
  const { clusters, platform_components, namespaces, rolebindings } = report.records;
  const counts = `${report.files} record files: ${plural(clusters, 'cluster')}, ${plural(platform_components, 'catalog entry', 'catalog entries')}, ${plural(namespaces, 'namespace')}, ${plural(rolebindings, 'rolebinding')}`;
  if (report.errors === 0 && report.warnings === 0) return `valid: no problems (${counts})`;
  const verdict = report.errors === 0 ? 'valid' : 'invalid';
  return `${verdict}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')} (${counts})`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

// GitHub workflow commands: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
function escapeData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** Paths in annotations must be relative to the workspace root, which may hold the config repo in a subfolder. */
export function annotationPaths(repoDir: string, workspace: string): (file: string) => string {
  const prefix = relative(workspace, repoDir);
  if (prefix === '' || prefix.startsWith('..') || isAbsolute(prefix)) return (file) => file;
  const posix = prefix.split(sep).join('/');
  return (file) => `${posix}/${file}`;
}
