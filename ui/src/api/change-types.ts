// The shapes of the answers about changes: a committed change set, its preview (the blast
// radius, in the shape `gitops-config diff --format json` prints), and the history of
// revisions. openapi/openapi.yaml is the contract; fields the UI does not show are left out.
import type { Endpoint } from './types.ts';

/** A problem as the API and the diff tool report it: `at` a formatted place, or the place's parts. */
export interface ProblemReport {
  code: string;
  severity: 'error' | 'warning';
  at?: string | { record?: { collection: string; id: string } | string; field?: string; file?: string; line?: number; column?: number };
  file?: string;
  record?: string;
  field?: string;
  message: string;
}

export interface FieldChange {
  field: string;
  old?: unknown;
  new?: unknown;
}

export interface EndpointChange {
  endpoint: Endpoint;
  before: number | null;
  after: number | null;
  added: string[];
  removed: string[];
  changed: { id: string; fields: FieldChange[] }[];
  reordered?: boolean;
  emptied?: boolean;
  oversized?: boolean;
}

export interface ClusterChange {
  id: string;
  status: 'added' | 'removed' | 'changed';
  environment?: string;
  cluster_dns?: string;
  endpoints: EndpointChange[];
}

/** The shrink guard's verdict on the change (the same as `gitops-config diff --format json` prints). */
export interface GuardVerdict {
  verdict: 'pass' | 'refuse';
  /** The commit says its shrink is meant (a trailer): what the guard finds is a warning. */
  shrink_allowed?: boolean;
  emptied_clusters?: { cluster: string; endpoints: string[] }[];
  emptied_limit?: number;
  inputs_before?: number;
  inputs_after?: number;
  inputs_halved?: boolean;
}

export interface Preview {
  publishable: boolean;
  problems: ProblemReport[];
  guard?: GuardVerdict | null;
  clusters: ClusterChange[];
  summary?: { clusters_changed?: number; inputs_added?: number; inputs_removed?: number; inputs_changed?: number; [other: string]: unknown };
}

export interface Committed {
  /** The revision that holds the set (the one served already when `unchanged`). */
  revision: string | null;
  /** The writes left every record as it was: nothing was stored. */
  unchanged?: boolean;
  records?: unknown[];
}

export interface RevisionEntry {
  revision: string;
  result: 'published' | 'refused';
  judged_at: string;
  author?: string | { name?: string; email?: string | null } | null;
  time?: string | null;
  message?: string | null;
  /** Null when the revision before it is not known. */
  clusters_changed: number | null;
  /** The first 100 of them, in id order. */
  clusters: string[] | null;
  problems?: ProblemReport[];
}

/** An error answer's details: which write of the set (`index`), where, and what. */
export interface ErrorDetail {
  index?: number;
  path?: string;
  message: string;
}

/** Where a problem is, as a person reads it: file:line, or record and field. */
export function whereOf(problem: ProblemReport): string {
  const at = problem.at;
  if (typeof at === 'string') return at;
  if (at) {
    if (at.file !== undefined) return at.line !== undefined ? `${at.file}:${at.line}${at.column !== undefined ? `:${at.column}` : ''}` : `${at.file}${at.field ? ` ${at.field}` : ''}`;
    const record = typeof at.record === 'string' ? at.record : at.record ? `${at.record.collection}/${at.record.id}` : '';
    return `${record}${at.field ?? ''}`;
  }
  return problem.file ?? problem.record ?? '';
}

export function authorOf(entry: RevisionEntry): string {
  const author = entry.author;
  if (!author) return '';
  if (typeof author === 'string') return author;
  return author.email ? `${author.name ?? ''} <${author.email}>`.trim() : (author.name ?? '');
}
