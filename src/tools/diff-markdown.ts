// The diff report as a pull-request comment in GitHub's Markdown: the loud parts first (a
// refusal, decommissions, removed clusters, moved URLs), then the changes by cluster, kept under
// GitHub's size limit for a comment. ./diff-render.ts chooses the format.
import type { ClusterDiff, DiffReport, FieldChange, InputChange } from '../domain/diff-report.ts';
import { count, envRank, revision, rolloutHeading, rolloutStepLines, value } from './diff-terms.ts';
import { plural, problemLine } from './validate-render.ts';

/** Marks the pull-request comment so that a workflow can find and update it. */
export const MARKDOWN_MARKER = '<!-- gitops-config-diff -->';

/** GitHub refuses comments over 65,536 characters; the report stays well below. */
const MARKDOWN_BUDGET = 60_000;
const MAX_IDS_PER_GROUP = 30;

function code(s: string): string {
  const fence = s.includes('`') ? '``' : '`';
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s.replaceAll('\n', ' ')}${pad}${fence}`;
}

export function renderMarkdown(report: DiffReport): string {
  const s = report.summary;
  const out: string[] = [MARKDOWN_MARKER, '## Config change preview', ''];
  out.push(
    s.clusters_changed === 0
      ? `**No cluster's responses change.** Base ${code(revision(report.base))} → head ${code(revision(report.head))}.`
      : `**${plural(s.clusters_changed, 'cluster')} of ${s.clusters_total} change.** Base ` +
          `${code(revision(report.base))} → head ${code(revision(report.head))}.`,
  );
  if (!report.verdict.publish) {
    out.push('', '> [!CAUTION]', '> **The server would refuse this revision** and keep serving the base:');
    for (const p of report.verdict.problems.slice(0, 20)) out.push(`> - ${code(problemLine(p))}`);
    if (report.verdict.problems.length > 20) out.push(`> - …and ${report.verdict.problems.length - 20} more`);
  }
  if (report.base.problems.length > 0) {
    out.push(
      '',
      `_The base revision has ${plural(report.base.problems.length, 'problem')}; the server would not have served it ` +
        `as it is._`,
    );
  }
  if (s.emptied.length > 0) {
    out.push(
      '',
      '> [!CAUTION]',
      '> **Decommission:** these lists become empty, so each agent deletes everything it rendered from them.',
    );
    for (const e of s.emptied) out.push(`> - ${code(e.cluster)} **${e.endpoint}**: ${e.before} → 0 inputs`);
  }
  const warnings = [
    ...s.clusters_removed.map(
      (id) =>
        `Cluster ${code(id)} is removed: its endpoints will answer 404, its agent keeps its last inputs and goes ` +
        `not-ready (to decommission, empty its lists first).`,
    ),
    ...s.dns_changes.map(
      (d) =>
        `Cluster ${code(d.cluster)} moves from ${code(d.from)} to ${code(d.to)}: an agent still polling the old URL ` +
        `gets 404.`,
    ),
    ...s.oversized.map(
      (o) =>
        `${code(o.cluster)} **${o.endpoint}** would be over 900 KiB: the server answers 500 and the agent keeps its ` +
        `last inputs.`,
    ),
  ];
  if (warnings.length > 0) {
    out.push('', '> [!WARNING]');
    for (const w of warnings) out.push(`> - ${w}`);
  }
  if (s.clusters_changed > 0) {
    out.push('', '| environment | clusters changed |', '|---|---:|');
    for (const [env, n] of Object.entries(s.by_environment).sort(([a], [b]) => envRank(a) - envRank(b)))
      out.push(`| ${env} | ${n} |`);
    out.push(`| **all** | **${s.clusters_changed}** |`);
    out.push('', `Inputs: ${s.inputs_added} added, ${s.inputs_removed} removed, ${s.inputs_changed} changed.`);
  }

  for (const rollout of report.rollouts) {
    out.push('', `### ${rolloutHeading(rollout)}`, '', ...rolloutStepLines(rollout, code).map((line) => `- ${line}`));
  }

  // Clusters that receive exactly the same change (a catalog bump reaching 3,000 clusters) are
  // shown once, with the list of clusters, so the comment stays readable and under GitHub's limit.
  const groups = groupClusters(report.clusters);
  if (groups.length > 0) out.push('', '### Changes by cluster');
  let used = out.join('\n').length;
  let shown = 0;
  for (const group of groups) {
    const block = groupMarkdown(group);
    if (used + block.length > MARKDOWN_BUDGET) break;
    out.push('', block);
    used += block.length + 1;
    shown++;
  }
  if (shown < groups.length) {
    const rest = groups.slice(shown).reduce((n, g) => n + g.length, 0);
    out.push(
      '',
      `_…and ${plural(groups.length - shown, 'more change group')} (${plural(rest, 'cluster')}), left out to keep ` +
        `this comment short: run \`gitops-config diff\` for the full report._`,
    );
  }
  const listing = report.listing;
  if (listing.added.length + listing.removed.length + listing.changed.length > 0) {
    out.push('', '<details><summary>Clusters listing (<code>GET /api/v2/gitops/clusters</code>)</summary>', '');
    out.push(...markdownInputLines(listing.added, listing.removed, listing.changed, false));
    out.push('', '</details>');
  }
  return `${out.join('\n')}\n`;
}

function groupClusters(clusters: ClusterDiff[]): ClusterDiff[][] {
  const groups = new Map<string, ClusterDiff[]>();
  for (const c of clusters) {
    const key = JSON.stringify([
      c.status,
      c.previous_cluster_dns === undefined ? null : [c.previous_cluster_dns, c.cluster_dns],
      c.endpoints.map((e) => [
        e.endpoint,
        e.added,
        e.removed,
        e.changed,
        e.reordered,
        e.emptied,
        e.oversized,
        e.before === null,
        e.after === null,
      ]),
    ]);
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

function groupMarkdown(group: ClusterDiff[]): string {
  const first = group[0];
  const lines: string[] = [];
  const names = group
    .slice(0, MAX_IDS_PER_GROUP)
    .map((c) => code(c.id))
    .join(', ');
  const more = group.length > MAX_IDS_PER_GROUP ? ` and ${group.length - MAX_IDS_PER_GROUP} more` : '';
  const envs = new Map<string, number>();
  for (const c of group) envs.set(c.environment, (envs.get(c.environment) ?? 0) + 1);
  const envText = [...envs]
    .sort(([a], [b]) => envRank(a) - envRank(b))
    .map(([e, n]) => `${e} ${n}`)
    .join(', ');
  const status = first.status === 'added' ? ' (new)' : first.status === 'removed' ? ' (removed)' : '';
  lines.push(`#### ${plural(group.length, 'cluster')}${status}: ${names}${more}`, '', `_${envText}_`);
  if (group.length === 1 && first.previous_cluster_dns)
    lines.push('', `cluster_dns: ${code(first.previous_cluster_dns)} → ${code(first.cluster_dns)}`);
  for (const e of first.endpoints) {
    const counts = group.length === 1 ? ` (${count(e.before)} → ${count(e.after)})` : '';
    const flag = e.emptied
      ? ' — :warning: **emptied: decommission**'
      : e.oversized
        ? ' — :warning: **over 900 KiB**'
        : '';
    lines.push('', `**${e.endpoint}**${counts}${flag}`, '');
    if (first.status === 'removed') lines.push('- the endpoint answers 404');
    lines.push(...markdownInputLines(e.added, e.removed, e.changed, e.reordered));
  }
  return lines.join('\n');
}

function markdownInputLines(added: string[], removed: string[], changed: InputChange[], reordered: boolean): string[] {
  const lines: string[] = [];
  for (const id of added) lines.push(`- added ${code(id)}`);
  for (const id of removed) lines.push(`- removed ${code(id)}`);
  for (const change of changed) {
    if (change.fields.length === 1) lines.push(`- changed ${code(change.id)}: ${fieldMarkdown(change.fields[0])}`);
    else {
      lines.push(`- changed ${code(change.id)}:`);
      for (const f of change.fields) lines.push(`  - ${fieldMarkdown(f)}`);
    }
  }
  if (reordered) lines.push('- the order of the inputs changes');
  return lines;
}

function fieldMarkdown(f: FieldChange): string {
  return `${code(f.field)} ${code(value(f.old))} → ${code(value(f.new))}`;
}
