// How the diff report names a revision, a value, an endpoint's number of inputs and the order of
// environments, the same in its text (./diff-render.ts) and its Markdown (./diff-markdown.ts).
import type { DiffReport, RolloutPlanChange } from '../domain/diff-report.ts';
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

/** So many cluster ids of a step are named; the rest are counted. */
const IDS_PER_STEP = 30;

/** A rollout the change creates, edits or deletes, in one line: what it is and how far it is released. */
export function rolloutHeading(r: RolloutPlanChange): string {
  const status = r.status === 'added' ? 'new' : r.status;
  const steps = plural(r.steps.length, 'step');
  return `rollout ${r.id} (${status}, component ${r.component}): ${r.released} of ${steps} released`;
}

/** Each step of a rollout with its wave and its clusters (the first few named), then the clusters no wave selects. */
export function rolloutStepLines(r: RolloutPlanChange, name: (id: string) => string = (id) => id): string[] {
  const ids = (list: string[]) =>
    list.slice(0, IDS_PER_STEP).map(name).join(', ') +
    (list.length > IDS_PER_STEP ? ` and ${list.length - IDS_PER_STEP} more` : '');
  const lines = r.steps.map(
    (s) => `step ${s.step} (wave ${s.wave}, ${plural(s.clusters.length, 'cluster')}): ${ids(s.clusters)}`,
  );
  if (r.unassigned.length > 0) lines.push(`in no wave, never changed: ${ids(r.unassigned)}`);
  return lines;
}
