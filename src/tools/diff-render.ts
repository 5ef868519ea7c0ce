// The diff report as text for a terminal, Markdown for a pull-request comment
// (./diff-markdown.ts), or JSON. The text is the report in full, each cluster on its own.
import type { ClusterDiff, DiffReport, EndpointDiff } from '../domain/diff-report.ts';
import { count, envRank, revision, rolloutHeading, rolloutStepLines, value } from './diff-terms.ts';
import { renderMarkdown } from './diff-markdown.ts';
import { type Palette, PLAIN } from './terminal-colours.ts';
import { plural, problemLine } from './validate-render.ts';

export type DiffFormat = 'text' | 'markdown' | 'json';

/** `palette` colours the text format only. */
export function renderDiff(report: DiffReport, format: DiffFormat, palette: Palette = PLAIN): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'markdown') return renderMarkdown(report);
  return renderText(report, palette);
}

function renderText(report: DiffReport, palette: Palette): string {
  const out: string[] = [`diff: base ${revision(report.base)} → head ${revision(report.head)}`];
  if (!report.verdict.publish) {
    out.push(
      palette.error('!! REFUSED: the server, serving the base, would refuse the head and keep serving the base:'),
    );
    out.push(...report.verdict.problems.slice(0, 50).map((p) => palette.error(`!!   ${problemLine(p)}`)));
  }
  if (report.base.problems.length > 0) {
    out.push(
      palette.warning(
        `note: base has ${plural(report.base.problems.length, 'problem')}; the server would not have served it as it ` +
          `is`,
      ),
    );
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
  for (const rollout of report.rollouts) {
    out.push('', palette.heading(rolloutHeading(rollout)), ...rolloutStepLines(rollout).map((line) => `  ${line}`));
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
    c.status === 'added'
      ? ' [new cluster]'
      : c.status === 'removed'
        ? ' [removed: its endpoints answer 404, its agent keeps its last inputs]'
        : '';
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

function inputLines(
  e: Pick<EndpointDiff, 'added' | 'removed' | 'changed' | 'reordered'>,
  indent: string,
  palette: Palette,
): string[] {
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
      `DECOMMISSION: ${e.cluster} ${e.endpoint} becomes empty (${e.before} → 0 inputs); the agent deletes everything ` +
        `it rendered from it`,
    );
  }
  for (const id of summary.clusters_removed) {
    lines.push(
      `REMOVED CLUSTER: ${id}: its endpoints will answer 404; its agent keeps its last inputs and goes not-ready (to ` +
        `decommission, empty its lists first)`,
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
