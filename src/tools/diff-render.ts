// The diff report as text for a terminal, Markdown for a pull-request comment, or JSON.
import { ENVIRONMENTS } from '../domain/records.ts';
import type { ClusterDiff, DiffReport, EndpointDiff, FieldChange, InputChange } from '../domain/diff-report.ts';
import { type Palette, PLAIN } from './terminal-colours.ts';
import { plural, problemLine } from './validate-render.ts';

export type DiffFormat = 'text' | 'markdown' | 'json';

/** Marks the pull-request comment so that a workflow can find and update it. */
export const MARKDOWN_MARKER = '<!-- gitops-config-diff -->';

/** GitHub refuses comments over 65,536 characters; the report stays well below. */
const MARKDOWN_BUDGET = 60_000;
const MAX_IDS_PER_GROUP = 30;

/** `palette` colours the text format only. */
export function renderDiff(report: DiffReport, format: DiffFormat, palette: Palette = PLAIN): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'markdown') return renderMarkdown(report);
  return renderText(report, palette);
}

function revision(info: DiffReport['base']): string {
  return info.commit ? `${info.label} (${info.commit.slice(0, 12)})` : info.label;
}

export function value(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v);
}

function count(n: number | null): string {
  return n === null ? '404' : plural(n, 'input');
}

// ---- text ----------------------------------------------------------------------------------

function renderText(report: DiffReport, palette: Palette): string {
  const out: string[] = [`diff: base ${revision(report.base)} → head ${revision(report.head)}`];
  if (!report.verdict.publish) {
    out.push(palette.error('!! REFUSED: the server, serving the base, would refuse the head and keep serving the base:'));
    out.push(...report.verdict.problems.slice(0, 50).map((p) => palette.error(`!!   ${problemLine(p)}`)));
  }
  if (report.base.problems.length > 0) {
    out.push(palette.warning(`note: base has ${plural(report.base.problems.length, 'problem')}; the server would not have served it as it is`));
  }
  out.push(...alerts(report).map((line) => palette.error(`!! ${line}`)));
  for (const cluster of report.clusters) {
    out.push('', palette.heading(clusterHeading(cluster)));
    for (const e of cluster.endpoints) {
      const flags = endpointFlags(e);
      out.push(`  ${e.endpoint} (${count(e.before)} → ${count(e.after)})${flags === '' ? '' : palette.error(flags)}`);
      out.push(...inputLines(e, '    ', palette));
    }
  }
  const { listing } = report;
  if (listing.added.length + listing.removed.length + listing.changed.length > 0) {
    out.push('', palette.heading('clusters listing (GET /api/v2/gitops/clusters)'));
    out.push(...inputLines({ ...listing, reordered: false }, '  ', palette));
  }
  out.push('', `${palette.heading('Summary:')} ${summaryText(report)}`);
  return `${out.join('\n')}\n`;
}

function clusterHeading(c: ClusterDiff): string {
  const status =
    c.status === 'added' ? ' [new cluster]' : c.status === 'removed' ? ' [removed: its endpoints answer 404, its agent keeps its last inputs]' : '';
  const dns = c.previous_cluster_dns ? `${c.previous_cluster_dns} → ${c.cluster_dns}` : c.cluster_dns;
  const env = c.previous_environment ? `${c.previous_environment} → ${c.environment}` : c.environment;
  return `cluster ${c.id} (${env}, ${dns})${status}`;
}

function endpointFlags(e: EndpointDiff): string {
  const flags: string[] = [];
  if (e.emptied) flags.push('EMPTIED: decommission, the agent deletes everything it rendered from this endpoint');
  if (e.oversized) flags.push('OVER 900 KiB: the server answers 500');
  return flags.length ? `  !! ${flags.join('; ')}` : '';
}

function inputLines(e: Pick<EndpointDiff, 'added' | 'removed' | 'changed' | 'reordered'>, indent: string, palette: Palette): string[] {
  const lines: string[] = [];
  for (const id of e.added) lines.push(`${indent}${palette.added(`+ ${id}`)}`);
  for (const id of e.removed) lines.push(`${indent}${palette.removed(`- ${id}`)}`);
  for (const change of e.changed) {
    lines.push(`${indent}${palette.changed(`~ ${change.id}`)}`);
    for (const f of change.fields) lines.push(`${indent}    ${f.field}: ${value(f.old)} → ${value(f.new)}`);
  }
  if (e.reordered) lines.push(`${indent}order changed`);
  return lines;
}

/** The loud part: everything that makes agents delete or stop updating. */
function alerts(report: DiffReport): string[] {
  const { summary } = report;
  const lines: string[] = [];
  for (const e of summary.emptied) {
    lines.push(
      `DECOMMISSION: ${e.cluster} ${e.endpoint} becomes empty (${e.before} → 0 inputs); the agent deletes everything it rendered from it`,
    );
  }
  for (const id of summary.clusters_removed) {
    lines.push(
      `REMOVED CLUSTER: ${id}: its endpoints will answer 404; its agent keeps its last inputs and goes not-ready (to decommission, empty its lists first)`,
    );
  }
  for (const d of summary.dns_changes) {
    lines.push(`cluster_dns CHANGES: ${d.cluster}: ${d.from} → ${d.to}; an agent still polling the old URL gets 404`);
  }
  for (const o of summary.oversized) {
    lines.push(`OVER 900 KiB: ${o.cluster} ${o.endpoint}: the server answers 500 and the agent keeps its last inputs`);
  }
  return lines;
}

function summaryText(report: DiffReport): string {
  const s = report.summary;
  if (s.clusters_changed === 0) return `no cluster's responses change (${plural(s.clusters_total, 'cluster')})`;
  const envs = Object.entries(s.by_environment)
    .sort(([a], [b]) => envRank(a) - envRank(b))
    .map(([env, n]) => `${env} ${n}`)
    .join(', ');
  const parts = [
    `${plural(s.clusters_changed, 'cluster')} changed (${envs}) of ${s.clusters_total}`,
    `inputs: ${s.inputs_added} added, ${s.inputs_removed} removed, ${s.inputs_changed} changed`,
  ];
  if (s.emptied.length) parts.push(`${plural(s.emptied.length, 'endpoint')} emptied (decommission)`);
  if (s.clusters_removed.length) parts.push(`${plural(s.clusters_removed.length, 'cluster')} removed`);
  if (s.clusters_added.length) parts.push(`${plural(s.clusters_added.length, 'cluster')} added`);
  return parts.join('; ');
}

function envRank(env: string): number {
  const i = (ENVIRONMENTS as readonly string[]).indexOf(env);
  return i === -1 ? ENVIRONMENTS.length : i;
}

// ---- markdown ------------------------------------------------------------------------------

function code(s: string): string {
  const fence = s.includes('`') ? '``' : '`';
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s.replaceAll('\n', ' ')}${pad}${fence}`;
}

function renderMarkdown(report: DiffReport): string {
  const s = report.summary;
  const out: string[] = [MARKDOWN_MARKER, '## Config change preview', ''];
  out.push(
    s.clusters_changed === 0
      ? `**No cluster's responses change.** Base ${code(revision(report.base))} → head ${code(revision(report.head))}.`
      : `**${plural(s.clusters_changed, 'cluster')} of ${s.clusters_total} change.** Base ${code(revision(report.base))} → head ${code(revision(report.head))}.`,
  );
  if (!report.verdict.publish) {
    out.push('', '> [!CAUTION]', '> **The server would refuse this revision** and keep serving the base:');
    for (const p of report.verdict.problems.slice(0, 20)) out.push(`> - ${code(problemLine(p))}`);
    if (report.verdict.problems.length > 20) out.push(`> - …and ${report.verdict.problems.length - 20} more`);
  }
  if (report.base.problems.length > 0) {
    out.push('', `_The base revision has ${plural(report.base.problems.length, 'problem')}; the server would not have served it as it is._`);
  }
  if (s.emptied.length > 0) {
    out.push('', '> [!CAUTION]', '> **Decommission:** these lists become empty, so each agent deletes everything it rendered from them.');
    for (const e of s.emptied) out.push(`> - ${code(e.cluster)} **${e.endpoint}**: ${e.before} → 0 inputs`);
  }
  const warnings = [
    ...s.clusters_removed.map(
      (id) => `Cluster ${code(id)} is removed: its endpoints will answer 404, its agent keeps its last inputs and goes not-ready (to decommission, empty its lists first).`,
    ),
    ...s.dns_changes.map((d) => `Cluster ${code(d.cluster)} moves from ${code(d.from)} to ${code(d.to)}: an agent still polling the old URL gets 404.`),
    ...s.oversized.map((o) => `${code(o.cluster)} **${o.endpoint}** would be over 900 KiB: the server answers 500 and the agent keeps its last inputs.`),
  ];
  if (warnings.length > 0) {
    out.push('', '> [!WARNING]');
    for (const w of warnings) out.push(`> - ${w}`);
  }
  if (s.clusters_changed > 0) {
    out.push('', '| environment | clusters changed |', '|---|---:|');
    for (const [env, n] of Object.entries(s.by_environment).sort(([a], [b]) => envRank(a) - envRank(b))) out.push(`| ${env} | ${n} |`);
    out.push(`| **all** | **${s.clusters_changed}** |`);
    out.push('', `Inputs: ${s.inputs_added} added, ${s.inputs_removed} removed, ${s.inputs_changed} changed.`);
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
    out.push('', `_…and ${plural(groups.length - shown, 'more change group')} (${plural(rest, 'cluster')}), left out to keep this comment short: run \`gitops-config diff\` for the full report._`);
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
      c.endpoints.map((e) => [e.endpoint, e.added, e.removed, e.changed, e.reordered, e.emptied, e.oversized, e.before === null, e.after === null]),
    ]);
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

function groupMarkdown(group: ClusterDiff[]): string {
  const first = group[0]!;
  const lines: string[] = [];
  const names = group.slice(0, MAX_IDS_PER_GROUP).map((c) => code(c.id)).join(', ');
  const more = group.length > MAX_IDS_PER_GROUP ? ` and ${group.length - MAX_IDS_PER_GROUP} more` : '';
  const envs = new Map<string, number>();
  for (const c of group) envs.set(c.environment, (envs.get(c.environment) ?? 0) + 1);
  const envText = [...envs].sort(([a], [b]) => envRank(a) - envRank(b)).map(([e, n]) => `${e} ${n}`).join(', ');
  const status = first.status === 'added' ? ' (new)' : first.status === 'removed' ? ' (removed)' : '';
  lines.push(`#### ${plural(group.length, 'cluster')}${status}: ${names}${more}`, '', `_${envText}_`);
  if (group.length === 1 && first.previous_cluster_dns) lines.push('', `cluster_dns: ${code(first.previous_cluster_dns)} → ${code(first.cluster_dns)}`);
  for (const e of first.endpoints) {
    const counts = group.length === 1 ? ` (${count(e.before)} → ${count(e.after)})` : '';
    const flag = e.emptied ? ' — :warning: **emptied: decommission**' : e.oversized ? ' — :warning: **over 900 KiB**' : '';
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
    if (change.fields.length === 1) lines.push(`- changed ${code(change.id)}: ${fieldMarkdown(change.fields[0]!)}`);
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
