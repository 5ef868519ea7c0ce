// Applies one REST write to a snapshot, in memory, and decides whether the result may be
// stored. Every backend (git, sqlite, memory) calls this inside its write lock and stores
// only what it returns, so all three accept and refuse exactly the same writes.
//
// The candidate record is checked against its JSON Schema (validateRecord, the same code
// that loads files and the seed), then the new snapshot is built and the checks the change
// can affect are run (snapshot-validation.ts): the changed cluster's references, patches and
// response sizes; for a catalog entry its depends_on (unknown ids, cycles) and the response
// sizes of the clusters that use it; for a delete, who still references the record. The
// other clusters are not re-checked: a write on one record cannot change their answers.
// Warnings (severity "warning") never block a write.
import type { Problem } from '../domain/problems.ts';
import type { AnyRecord, Cluster, Collection, PlatformComponent, RecordOf } from '../domain/records.ts';
import { validateRecord } from '../domain/record-validation.ts';
import { type Snapshot, withRecord } from '../domain/snapshot.ts';
import { MAX_RESPONSE_BYTES, PER_CLUSTER_ENDPOINTS } from '../domain/read-endpoints.ts';
import {
  checkCluster,
  clusterWithDns,
  dependencyCycles,
  dependents,
  referencingClusters,
} from '../domain/snapshot-validation.ts';
import { ApiError, problemsToDetails } from '../http/errors.ts';
import type { Mutation } from './config-store.ts';

export interface AppliedMutation {
  /** The record as it will be stored (canonical form), or null for a delete. */
  record: AnyRecord | null;
  /** The record before the write, if there was one. */
  previous: AnyRecord | undefined;
  /** Top-level fields whose value changes; every field for a create or a delete. */
  changedFields: string[];
  /** The snapshot after the write, at the revision given; the input snapshot when unchanged. */
  snapshot: Snapshot;
  /** The write changes nothing (an update to identical content). */
  unchanged: boolean;
}

/** How many ids an error message names before it says "and N more". */
const NAMES_IN_MESSAGE = 20;

/**
 * The outcome of `mutation` on `snapshot`, with the new snapshot at `revision`; throws an
 * ApiError (400, 404, 409, 412) when the write must be refused. Pure: nothing is stored.
 */
export function applyMutation(snapshot: Snapshot, mutation: Mutation, revision: string): AppliedMutation {
  const { collection, id } = mutation;
  const previous = snapshot[collection].get(id) as AnyRecord | undefined;
  const key = `${collection}/${id}`;
  if (mutation.action === 'create' && previous) throw new ApiError('conflict', `${key} already exists`);
  if (mutation.action !== 'create' && !previous) throw new ApiError('not_found', `${key} not found`);

  const candidate = mutation.apply(previous, snapshot);
  if (candidate === null) {
    if (mutation.action !== 'delete') throw new Error(`a ${mutation.action} mutation returned no record`);
    refuseDeleteOfReferenced(snapshot, collection, id);
    const built = withRecord(snapshot, collection, id, null, revision);
    if (!built.ok) throw new Error(`deleting ${key} made an invalid snapshot: ${built.problems[0]?.message}`);
    return { record: null, previous, changedFields: Object.keys(previous!), snapshot: built.snapshot, unchanged: false };
  }
  if (mutation.action === 'delete') throw new Error('a delete mutation returned a record');

  const validated = validateRecord(collection, candidate);
  if (!validated.ok) throw invalid(collection, id, validated.problems);
  const record = validated.record as RecordOf[typeof collection];
  if (record.id !== id) {
    throw new ApiError('validation_error', `the id in the body ("${record.id}") must equal the id in the path ("${id}")`, {
      details: [{ path: '/id', message: `must be "${id}"` }],
    });
  }

  const changedFields = previous ? changedTopLevelFields(previous, record) : Object.keys(record);
  if (previous && changedFields.length === 0) {
    return { record: previous, previous, changedFields, snapshot, unchanged: true };
  }

  if (collection === 'clusters') {
    const other = clusterWithDns(snapshot, (record as Cluster).cluster_dns, id);
    if (other) {
      throw new ApiError('conflict', `cluster_dns ${(record as Cluster).cluster_dns} is already used by cluster ${other.id}`, {
        details: [{ path: '/cluster_dns', message: `already used by cluster "${other.id}"` }],
      });
    }
  }

  const built = withRecord(snapshot, collection, id, record, revision);
  if (!built.ok) throw invalid(collection, id, built.problems);
  const next = built.snapshot;

  const problems = errorsOnly(problemsOfChange(snapshot, next, collection, record));
  if (problems.length > 0) throw invalid(collection, id, problems);
  return { record, previous, changedFields, snapshot: next, unchanged: false };
}

/** The checks a changed (created or updated) record can affect. */
function problemsOfChange(before: Snapshot, after: Snapshot, collection: Collection, record: AnyRecord): Problem[] {
  switch (collection) {
    case 'clusters':
      // The record being written must be valid as a whole, like the validator checks it.
      return checkCluster(after, record as Cluster);
    case 'platform_components':
      return [...catalogProblems(after, record as PlatformComponent), ...newSizeErrors(before, after, collection, record.id)];
    case 'namespaces':
    case 'rolebindings':
      return newSizeErrors(before, after, collection, record.id);
  }
}

/** Unknown and self depends_on of the entry, and every cycle through it. */
function catalogProblems(after: Snapshot, entry: PlatformComponent): Problem[] {
  const problems: Problem[] = [];
  entry.depends_on.forEach((dep, index) => {
    if (dep === entry.id) {
      problems.push({ path: `/depends_on/${index}`, message: 'depends on itself' });
    } else if (!after.platform_components.has(dep)) {
      problems.push({ path: `/depends_on/${index}`, message: `depends on "${dep}", which is not in the catalog` });
    }
  });
  // Only this entry's edges changed, so any new cycle goes through it.
  for (const cycle of dependencyCycles(after)) {
    if (!cycle.includes(entry.id)) continue;
    const start = cycle.indexOf(entry.id);
    const fromHere = [...cycle.slice(start), ...cycle.slice(0, start), entry.id];
    problems.push({ path: '/depends_on', message: `depends_on would form a cycle: ${fromHere.join(' -> ')}` });
  }
  return problems;
}

/** The read endpoint whose answer a definition of each collection appears in. */
const ENDPOINT_OF = { platform_components: 'platform-components', namespaces: 'namespaces', rolebindings: 'rolebindings' } as const;

/**
 * Responses of the clusters that use a changed definition that would go over the consumer's
 * size limit because of the change (a cluster already over it is not blamed on this write).
 * A definition that did not grow cannot push anyone over, so most writes skip the scan; and
 * a cluster whose answer cannot come near the limit (by a cheap upper bound) is not merged.
 */
function newSizeErrors(before: Snapshot, after: Snapshot, collection: Exclude<Collection, 'clusters'>, id: string): Problem[] {
  const old = before[collection].get(id);
  const now = after[collection].get(id);
  if (!old || !now || JSON.stringify(now).length <= JSON.stringify(old).length) return [];
  const endpoint = ENDPOINT_OF[collection];
  const size = (snapshot: Snapshot, cluster: Cluster) =>
    Buffer.byteLength(JSON.stringify({ inputs: PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster) }));
  const bound = responseSizeBound(after, collection);
  const problems: Problem[] = [];
  for (const clusterId of referencingClusters(after, collection, id)) {
    const cluster = after.clusters.get(clusterId)!;
    if (bound(cluster) < MAX_RESPONSE_BYTES) continue;
    const bytes = size(after, cluster);
    if (bytes < MAX_RESPONSE_BYTES || size(before, cluster) >= MAX_RESPONSE_BYTES) continue;
    problems.push({
      path: '',
      message: `cluster "${clusterId}" would get a ${endpoint} response of ${bytes} bytes, over the consumer's 900 KiB limit (921600 bytes)`,
    });
  }
  return problems;
}

/**
 * An upper bound of the bytes of a cluster's answer on the endpoint a collection feeds,
 * without merging: each item holds at most its definition, the cluster's reference (with its
 * overrides), the cluster block and the keys around them; the patches appear once in all.
 * Strings are counted at 6 bytes per UTF-16 unit, JSON's worst case ("\u001f"), so no
 * serializing is needed per cluster.
 */
export function responseSizeBound(snapshot: Snapshot, collection: Exclude<Collection, 'clusters'>): (cluster: Cluster) => number {
  const definitions = new Map<string, number>();
  for (const [key, record] of snapshot[collection] as ReadonlyMap<string, AnyRecord>) {
    definitions.set(key, Buffer.byteLength(JSON.stringify(record)));
  }
  const text = (value: string | null | undefined) => (value == null ? 4 : 6 * value.length + 2);
  const KEYS_PER_ITEM = 192; // the reference's and the item's own keys, "cluster", "source", braces and commas
  return (cluster) => {
    const block = text(cluster.cluster_name) + text(cluster.cluster_dns) + text(cluster.environment);
    let total = 16;
    if (collection === 'platform_components') {
      for (const [component, values] of Object.entries(cluster.patches)) {
        total += text(component) + 4;
        for (const [key, value] of Object.entries(values)) total += text(key) + text(value) + 2;
      }
    }
    for (const ref of cluster[collection] as { id: string; oci_tag?: string | null; component_path?: string | null }[]) {
      total += (definitions.get(ref.id) ?? 0) + text(ref.id) + text(ref.oci_tag) + text(ref.component_path) + block + KEYS_PER_ITEM;
    }
    return total;
  };
}

function refuseDeleteOfReferenced(snapshot: Snapshot, collection: Collection, id: string): void {
  if (collection === 'clusters') return;
  const clusters = referencingClusters(snapshot, collection, id);
  if (clusters.length > 0) {
    throw new ApiError('conflict', `${collection}/${id} is still referenced by clusters: ${listNames(clusters)}; remove those references first`, {
      details: [{ path: '', message: `referenced by ${clusters.length} cluster(s)` }],
    });
  }
  if (collection === 'platform_components') {
    const entries = dependents(snapshot, id);
    if (entries.length > 0) {
      throw new ApiError(
        'conflict',
        `platform_components/${id} is still a depends_on of catalog entries: ${listNames(entries)}; change their depends_on first`,
        { details: [{ path: '', message: `depended on by ${entries.length} catalog entr${entries.length === 1 ? 'y' : 'ies'}` }] },
      );
    }
  }
}

function listNames(ids: string[]): string {
  const shown = ids.slice(0, NAMES_IN_MESSAGE).join(', ');
  return ids.length > NAMES_IN_MESSAGE ? `${shown} and ${ids.length - NAMES_IN_MESSAGE} more` : shown;
}

function errorsOnly(problems: Problem[]): Problem[] {
  return problems.filter((p) => p.severity !== 'warning');
}

/** A 400 naming every problem, with paths inside the record ("/platform_components/2/id"). */
function invalid(collection: Collection, id: string, problems: Problem[]): ApiError {
  const prefix = `${collection}/${id}`;
  const details = problemsToDetails(
    problems.map((p) => ({ ...p, path: p.path === prefix ? '' : p.path.startsWith(`${prefix}/`) ? p.path.slice(prefix.length) : p.path })),
  );
  const singular = { clusters: 'cluster', platform_components: 'platform component', namespaces: 'namespace', rolebindings: 'rolebinding' }[collection];
  const summary = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).slice(0, 3).join('; ');
  return new ApiError('validation_error', `the ${singular} record is invalid: ${summary}${details.length > 3 ? '; ...' : ''}`, { details });
}

/** Top-level fields whose values differ, in the record's field order. */
export function changedTopLevelFields(before: AnyRecord, after: AnyRecord): string[] {
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]));
}
