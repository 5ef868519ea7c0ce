// A problem is data: what rule it breaks (code), how bad it is (severity), where it is (at)
// and a sentence for a person (message). Code that decides anything looks at the code and the
// location, never at the message. The server, the validator, the diff tool and REST writes
// all speak in these.
import type { Collection } from './records.ts';

export type Severity = 'error' | 'warning';

/** Every rule the service checks, by name. Where each is checked: src/domain/rules/index.ts. */
export const PROBLEM_CODES = [
  // A record file itself (src/domain/repo-layout/record-file-parse.ts, and the loaders that
  // refuse to open what is not a regular file or is too large).
  'not_regular_file',
  'file_too_large',
  'yaml_syntax',
  'not_a_mapping',
  'empty_file',
  'nested_record_file',
  'id_mismatch',
  'ignored_file',
  // The record against its JSON Schema (rules/record-schema.ts).
  'unknown_field',
  'missing_field',
  'wrong_type',
  'invalid_value',
  'invalid_key',
  // Across records (rules/uniqueness.ts, rules/references.ts, rules/catalog.ts, rules/response-size.ts).
  'duplicate_id',
  'duplicate_cluster_dns',
  'duplicate_reference',
  'dangling_reference',
  'stray_patch',
  'unknown_dependency',
  'self_dependency',
  'dependency_cycle',
  'response_too_large',
  'response_near_limit',
  'too_many_inputs',
  'unused_catalog_entry',
  'component_id_not_dns_label',
  'oci_url_scheme',
  // A cluster's receiver_url against RECEIVER_HOSTS (rules/receiver-url.ts).
  'receiver_url_host',
  'fleet_list_large',
  // Ids as file names on macOS and Windows (rules/portable-ids.ts).
  'id_case_clash',
  'reserved_file_name',
  // A revision against the one served before it (domain/judge.ts).
  'shrink_guard',
  // A cluster's credential_generation against the revisions before (domain/credential-generations.ts).
  'credential_generation_lowered',
  'credential_generation_reused',
  // The seed file's shape (domain/seed.ts).
  'seed_shape',
  // A write's own preconditions (domain/writes/staged-write.ts, write-rules.ts).
  'id_change',
  'still_referenced',
  // A rollout on its own (rollouts/rollout-normalize.ts): durations, wave names, approvals.
  'invalid_duration',
  'duplicate_wave_name',
  'unknown_approved_wave',
  // A rollout against the revision (rollouts/rollout-rules.ts); the missing catalog entry it
  // names is a dangling_reference.
  'set_unchanged',
  'duplicate_rollout',
  'released_out_of_range',
  'empty_wave',
  'wave_cluster_not_member',
  'members_in_no_wave',
  'reports_need_rollout_id',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** A record, named by its collection and id. */
export interface RecordKey {
  collection: Collection;
  id: string;
}

export interface ProblemLocation {
  /** The record the problem is in, when it is about one. */
  record?: RecordKey;
  /** JSON pointer inside the record ("/platform_components/2/id"); "" for the whole record. */
  field: string;
  /** The file the record came from (config repo path), when there is one. */
  file?: string;
  /** 1-based position in `file`, when known. */
  line?: number;
  column?: number;
}

export interface Problem {
  code: ProblemCode;
  severity: Severity;
  at: ProblemLocation;
  message: string;
  /** For a reference problem: the record that is referred to (and is missing, or causes it). */
  refersTo?: RecordKey;
  /**
   * What makes this the same problem in another revision of the same record, when the field
   * alone does not (a dangling reference whose index in its list moved): "namespaces:team-a".
   */
  identity?: string;
}

export function problem(
  code: ProblemCode,
  at: ProblemLocation,
  message: string,
  extra: Partial<Problem> = {},
): Problem {
  return { code, severity: 'error', at, message, ...extra };
}

export function isError(p: Problem): boolean {
  return p.severity === 'error';
}

/** "clusters/c1" */
export function recordName(key: RecordKey): string {
  return `${key.collection}/${key.id}`;
}

/** The same problem in two revisions has the same identity key (code, record, and what it is about). */
export function problemIdentity(p: Problem): string {
  const record = p.at.record ? recordName(p.at.record) : '';
  return `${p.code}\u0000${record}\u0000${p.identity ?? p.at.field}`;
}

/** The same problems placed in `record` (problems of a record checked on its own have none). */
export function inRecord(problems: Problem[], record: RecordKey, prefix = ''): Problem[] {
  return problems.map((p) => ({ ...p, at: { ...p.at, record, field: prefix + p.at.field } }));
}

/**
 * Where a problem is, for a person: "clusters/a.yaml:7:14", "clusters/a.yaml /patches/x",
 * or "clusters/c1/platform_components/2/id" when there is no file.
 */
export function formatLocation(at: ProblemLocation): string {
  if (at.file !== undefined) {
    if (at.line !== undefined) return `${at.file}:${at.line}:${at.column ?? 1}`;
    return at.field === '' ? at.file : `${at.file} ${at.field}`;
  }
  const record = at.record ? recordName(at.record) : '';
  return record + at.field;
}

export function formatProblem(p: Problem): string {
  const where = formatLocation(p.at);
  return where ? `${where}: ${p.message}` : p.message;
}

/** Attaches the file each problem's record came from. `sources` maps "collection/id" to a path. */
export function withSources(problems: Problem[], sources: ReadonlyMap<string, string>): Problem[] {
  if (sources.size === 0) return problems;
  return problems.map((p) => {
    if (p.at.file !== undefined || !p.at.record) return p;
    const file = sources.get(recordName(p.at.record));
    return file === undefined ? p : { ...p, at: { ...p.at, file } };
  });
}
