// How the diff report names a revision, a value, an endpoint's number of inputs and the order of
// environments, the same in its text (./diff-render.ts) and its Markdown (./diff-markdown.ts).
import type { DiffReport } from '../domain/diff-report.ts';
import { ENVIRONMENTS } from '../domain/records.ts';
import { plural } from './validate-render.ts';

export function revision(info: DiffReport['base']): string {
  return info.commit ? `${info.label} (${info.commit.slice(0, 12)})` : info.label;
}

export function value(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v);
}

export function count(n: number | null): string {
  return n === null ? '404' : plural(n, 'input');
}

/** Where an environment comes in the report: in the order of ENVIRONMENTS, an unknown one last. */
export function envRank(env: string): number {
  const i = (ENVIRONMENTS as readonly string[]).indexOf(env);
  return i === -1 ? ENVIRONMENTS.length : i;
}
