/**
 * A single thing wrong with the configuration. `path` is a JSON-pointer-like location inside
 * a record ("/platform_components/2/id"); `file` is set when the record came from a file of
 * the config repo, so that people can be pointed at the line to fix.
 */
export interface Problem {
  path: string;
  message: string;
  file?: string;
  /** 1-based position in `file`, when known. */
  line?: number;
  column?: number;
  severity?: 'error' | 'warning';
}

export function formatProblem(p: Problem): string {
  const file = p.file && p.line ? `${p.file}:${p.line}:${p.column ?? 1}` : p.file;
  const where = [file, p.path !== '' ? p.path : undefined].filter(Boolean).join(' ');
  return where ? `${where}: ${p.message}` : p.message;
}
