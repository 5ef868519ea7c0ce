// A rollout's progress as `rollout list` and `rollout status` print it: text for a terminal,
// Markdown for a pull request or a chat, or JSON exactly in the API's shape (the service's
// answer, indented). Text and Markdown say the state, the reason in words, the step reached
// ("step 2 of 4 released") and the clusters by state; `status` adds each step, its times and
// its clusters grouped by state (long groups cut short: --format json lists every cluster).
import { CLUSTER_STATES, type ClusterState } from '../domain/rollouts/cluster-progress.ts';
import type { RolloutDetail, RolloutList, RolloutListItem, StepView } from '../domain/rollouts/rollout-shapes.ts';
import { count, listed } from '../domain/rollouts/rollout-words.ts';
import { type Palette, PLAIN } from './terminal-colours.ts';

export type RolloutFormat = 'text' | 'markdown' | 'json';
export const ROLLOUT_FORMATS: readonly RolloutFormat[] = ['text', 'markdown', 'json'];

/** Cluster ids shown per state and step in text and Markdown. */
const MAX_IDS = 40;

export function renderRolloutList(list: RolloutList, format: RolloutFormat, palette: Palette = PLAIN): string {
  if (format === 'json') return `${JSON.stringify(list, null, 2)}\n`;
  if (list.rollouts.length === 0) return 'no rollouts are served\n';
  if (format === 'markdown') {
    const rows = list.rollouts.map((r) =>
      row([
        r.id,
        r.component,
        setText(r),
        `**${r.state}**`,
        reached(r, r.steps),
        clustersText(r.clusters),
        cell(r.reason),
      ]),
    );
    const head = ['| Rollout | Component | Set | State | Step | Clusters | Reason |', '|---|---|---|---|---|---|---|'];
    return `${[...head, ...rows].join('\n')}\n`;
  }
  const blocks = list.rollouts.map((r) =>
    [
      `${palette.heading(r.id)}: ${r.component} → ${setText(r)}`,
      `  ${stateText(r.state, palette)}: ${r.reason}`,
      `  ${reached(r, r.steps)}; clusters: ${clustersText(r.clusters)}`,
    ].join('\n'),
  );
  return `${blocks.join('\n\n')}\n`;
}

export function renderRolloutDetail(detail: RolloutDetail, format: RolloutFormat, palette: Palette = PLAIN): string {
  if (format === 'json') return `${JSON.stringify(detail, null, 2)}\n`;
  if (format === 'markdown') return renderMarkdown(detail);
  const out = [
    `${palette.heading(`rollout ${detail.id}`)}: ${detail.component} → ${setText(detail)}`,
    `${stateText(detail.state, palette)}: ${detail.reason}`,
    `${reached(detail, detail.steps.length)}; clusters: ${clustersText(detail.clusters)}`,
  ];
  for (const step of detail.steps) {
    const heading = `step ${step.step} (wave ${step.wave}, ${count(step.clusters.length, 'cluster')})`;
    out.push('', `${palette.heading(heading)}: ${stepTimes(step)}`);
    for (const [state, ids] of byState(step)) out.push(`  ${state.padEnd(9)} ${listed(ids, MAX_IDS)}`);
  }
  return `${out.join('\n')}\n`;
}

function renderMarkdown(detail: RolloutDetail): string {
  const out = [
    `### Rollout \`${detail.id}\`: ${detail.component} → ${setText(detail)}`,
    '',
    `**${detail.state}**: ${detail.reason}`,
    '',
    `${reached(detail, detail.steps.length)}; clusters: ${clustersText(detail.clusters)}`,
    '',
    '| Step | Wave | Released | Done | Soak ends | Clusters |',
    '|---|---|---|---|---|---|',
  ];
  for (const step of detail.steps) {
    const groups = byState(step)
      .map(([state, ids]) => `${state}: ${listed(ids, MAX_IDS)}`)
      .join('<br>');
    const revision = step.released_in === null ? '' : ` (${step.released_in.slice(0, 12)})`;
    const released = step.released_at === null ? '—' : `${step.released_at}${revision}`;
    const soak = step.soak_ends_at ?? '—';
    out.push(row([String(step.step), step.wave, released, step.done_at ?? '—', soak, cell(groups)]));
  }
  return `${out.join('\n')}\n`;
}

/** "step 2 of 4 released" ("no step of 4 released yet"). */
function reached(item: Pick<RolloutListItem, 'released'>, steps: number): string {
  return item.released === 0 ? `no step of ${steps} released yet` : `step ${item.released} of ${steps} released`;
}

function setText(item: Pick<RolloutListItem, 'set'>): string {
  return Object.entries(item.set)
    .map(([field, value]) => `${field} ${value}`)
    .join(', ');
}

/** The states that have clusters, in the order of the API: "fetched 1, pending 23". */
function clustersText(counts: Record<ClusterState, number>): string {
  const parts = CLUSTER_STATES.filter((s) => counts[s] > 0).map((s) => `${s} ${counts[s]}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

function stateText(state: string, palette: Palette): string {
  if (state === 'halted') return palette.error(state);
  if (state === 'ready' || state === 'complete') return palette.ok(state);
  return palette.warning(state);
}

function stepTimes(step: StepView): string {
  if (step.released_at === null) return 'not released';
  const revision = step.released_in === null ? '' : ` in ${step.released_in.slice(0, 12)}`;
  const parts = [`released ${step.released_at}${revision}`];
  parts.push(step.done_at === null ? 'not done' : `done ${step.done_at}`);
  if (step.soak_ends_at !== null) parts.push(`soak ends ${step.soak_ends_at}`);
  return parts.join(', ');
}

/** A step's cluster ids per state, in the order of the API's states; a cluster's message beside its id. */
function byState(step: StepView): [ClusterState, string[]][] {
  const groups = new Map<ClusterState, string[]>();
  for (const c of step.clusters) {
    const ids = groups.get(c.state) ?? [];
    ids.push(c.message === undefined ? c.id : `${c.id} (${c.message})`);
    groups.set(c.state, ids);
  }
  return CLUSTER_STATES.filter((s) => groups.has(s)).map((s) => [s, groups.get(s)!]);
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** Text in a Markdown table cell: its pipes escaped, on one line. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
