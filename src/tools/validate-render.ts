// The validation report as text (file:line:col: severity: message), JSON, or GitHub workflow
// commands that annotate a pull request.
import { isAbsolute, relative, sep } from 'node:path';
import type { Problem } from '../domain/problem.ts';
import { type Palette, PLAIN } from './terminal-colours.ts';
import type { ValidationReport } from './validate.ts';

export type ValidateFormat = 'text' | 'json' | 'github';

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
export function problemLine(p: Problem, palette: Palette = PLAIN): string {
  const where = p.at.file
    ? `${p.at.file}:${p.at.line ?? 1}:${p.at.column ?? 1}: `
    : p.at.record
      ? `${p.at.record.collection}/${p.at.record.id}: `
      : '';
  return `${where}${palette[p.severity === 'error' ? 'error' : 'warning'](p.severity)}: ${describe(p)}`;
}

/** The message with the field it is about, unless the message names it already. */
export function describe(p: Problem): string {
  // The message of a problem with a key names the key: say where it sits instead.
  const pointer =
    p.code === 'unknown_field' || p.code === 'invalid_key'
      ? p.at.field.slice(0, p.at.field.lastIndexOf('/'))
      : p.at.field;
  const field = fieldName(pointer);
  return field === '' ? p.message : `${field}: ${p.message}`;
}

export function renderValidation(
  report: ValidationReport,
  format: ValidateFormat,
  annotationBase?: (file: string) => string,
  /** Colours for the text format. */
  palette: Palette = PLAIN,
): string {
  if (format === 'json') {
    const problems = report.problems.map((p) => ({
      code: p.code,
      file: p.at.file ?? null,
      line: p.at.line ?? null,
      column: p.at.column ?? null,
      severity: p.severity,
      record: p.at.record ? `${p.at.record.collection}/${p.at.record.id}` : null,
      path: p.at.field,
      message: describe(p),
    }));
    const { errors, warnings, files, records, base } = report;
    const summary = { valid: errors === 0, errors, warnings, files, records, ...(base ? { base } : {}), problems };
    return `${JSON.stringify(summary, null, 2)}\n`;
  }
  const lines: string[] = [];
  for (const p of report.problems) {
    if (format === 'github') {
      const file = p.at.file;
      const props = file
        ? [
            `file=${escapeProperty((annotationBase ?? ((f) => f))(file))}`,
            `line=${p.at.line ?? 1}`,
            `col=${p.at.column ?? 1}`,
          ]
        : [];
      props.push(`title=${escapeProperty(`gitops-config ${p.severity}`)}`);
      lines.push(`::${p.severity} ${props.join(',')}::${escapeData(describe(p))}`);
    } else {
      lines.push(problemLine(p, format === 'text' ? palette : PLAIN));
    }
  }
  lines.push(summaryLine(report, format === 'text' ? palette : PLAIN));
  return `${lines.join('\n')}\n`;
}

export function summaryLine(report: ValidationReport, palette: Palette = PLAIN): string {
  const { clusters, platform_components, namespaces, rolebindings, rollouts } = report.records;
  // Rollouts are named only where there are some: most repos have none most of the time.
  const rolloutCount = rollouts > 0 ? `, ${plural(rollouts, 'rollout')}` : '';
  const counts =
    `${report.files} record files: ${plural(clusters, 'cluster')}, ` +
    `${plural(platform_components, 'catalog entry', 'catalog entries')}, ${plural(namespaces, 'namespace')}, ` +
    `${plural(rolebindings, 'rolebinding')}${rolloutCount}`;
  const against = report.base ? `; judged against ${report.base.label} (${report.base.commit.slice(0, 12)})` : '';
  if (report.errors === 0 && report.warnings === 0) return `${palette.ok('valid')}: no problems (${counts}${against})`;
  const verdict = report.errors === 0 ? palette.ok('valid') : palette.error('invalid');
  return `${verdict}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')} (${counts}${against})`;
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
