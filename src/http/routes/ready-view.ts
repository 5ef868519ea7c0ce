// What /ready shows, in two views. /ready is public (the kubelet probes it without
// credentials), so the public view says only what an outsider may know: ready or not, the
// revision served and the one refused, counts of the problems by severity and their codes,
// states and times. The problems themselves (their messages quote values of the config, a
// database password included), error texts, paths and the repository's URL are shown only
// to a caller with a token (read or write).
import type { BackendName } from '../../store/backends/index.ts';
import { formatLocation, type Problem } from '../../domain/problem.ts';
import type { LoadReport, StoreStatus } from '../../store/runner/store-status.ts';

export type ReadyView = 'public' | 'full';

export interface ReadyAnswer {
  status: 200 | 503;
  body: Record<string, unknown>;
}

export function readyAnswer(status: StoreStatus, backend: BackendName, view: ReadyView): ReadyAnswer {
  const { published, lastLoad } = status;
  const facts = view === 'full' ? { ...status.details, ...status.internal } : status.details;
  const last_load = lastLoad ? loadReport(lastLoad, view) : null;
  if (!published) {
    return {
      status: 503,
      body: {
        status: 'unavailable',
        error: 'unavailable',
        message: notServedYet(lastLoad, view),
        backend,
        view,
        ...(last_load ? { last_load } : {}),
        ...facts,
      },
    };
  }
  return {
    status: 200,
    body: {
      status: 'ok',
      backend,
      view,
      revision: published.snapshot.revision,
      loaded_at: published.publishedAt.toISOString(),
      clusters: published.snapshot.clusters.size,
      // The last load failed, or was refused, but an earlier revision is still served.
      stale: lastLoad?.ok === false,
      last_load,
      ...facts,
    },
  };
}

function notServedYet(lastLoad: LoadReport | undefined, view: ReadyView): string {
  if (lastLoad?.ok !== false) return 'no configuration is served yet: the first load has not finished';
  if (view === 'full') return `no configuration is served yet: ${lastLoad.error}`;
  return lastLoad.reason
    ? `no configuration is served yet: the store cannot be read now (${lastLoad.reason})`
    : `no configuration is served yet: revision ${lastLoad.revision} was refused`;
}

/** The last load: counts for everyone; the error's text and each problem only in the full view. */
function loadReport(report: LoadReport, view: ReadyView): Record<string, unknown> {
  const problems = report.problems ?? [];
  return {
    at: report.at,
    ok: report.ok,
    ...(report.revision !== undefined ? { revision: report.revision } : {}),
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    // A refused revision: its problems counted (a store that could not be read has a reason instead).
    ...(report.ok || report.reason !== undefined
      ? {}
      : { problem_counts: problemCounts(problems), problem_codes: [...new Set(problems.map((p) => p.code))].sort() }),
    ...(view === 'full' && report.error !== undefined ? { error: report.error } : {}),
    ...(view === 'full' && report.problems ? { problems: report.problems.map(problemView) } : {}),
  };
}

function problemCounts(problems: readonly Problem[]): { error: number; warning: number } {
  let error = 0;
  for (const p of problems) if (p.severity === 'error') error++;
  return { error, warning: problems.length - error };
}

/** A problem as /ready's full view and the history of revisions show it. */
export function problemView(p: Problem): Record<string, unknown> {
  return {
    code: p.code,
    severity: p.severity,
    at: formatLocation(p.at),
    ...(p.at.file !== undefined ? { file: p.at.file } : {}),
    // Where in the file, as `gitops-config validate` says it (1-based; the column in UTF-16 code units).
    ...(p.at.line !== undefined ? { line: p.at.line, column: p.at.column ?? 1 } : {}),
    ...(p.at.record ? { record: `${p.at.record.collection}/${p.at.record.id}` } : {}),
    field: p.at.field,
    message: p.message,
  };
}
