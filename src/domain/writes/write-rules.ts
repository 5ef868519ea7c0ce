// What a written record does to the rest of the revision, judged once the revision is
// complete: after a single write, or after the last write of a change set. `before` is the
// revision the writes started from, `after` the one they make.
//
// Writes ratchet (docs/decisions/0004-writes-ratchet.md): a problem the record already had
// in `before` (a dangling reference the read contract allows, a list already too long) does
// not refuse writes that leave it as it was; only problems they introduce do. Warnings never do.
import { isError, type Problem, problemIdentity, recordName } from '../problem.ts';
import type { AnyRecord, Cluster, Collection, Rollout } from '../records.ts';
import { generationLowered } from '../credential-generations.ts';
import type { ReceiverHosts } from '../receiver-hosts.ts';
import { receiverUrlProblem } from '../rules/receiver-url.ts';
import { checkRecordChange, checkRolloutsAround } from '../rules/index.ts';
import { rolloutsOfComponent } from '../rollouts/rollout-rules.ts';
import { dependents } from '../rules/catalog.ts';
import { referencingClusters } from '../rules/references.ts';
import { problem } from '../problem.ts';
import type { Snapshot } from '../snapshot.ts';
import type { WriteRefusal } from './write-request.ts';

/** How many ids a refusal names before it says "and N more". */
const NAMES_IN_MESSAGE = 20;

const SINGULAR: Record<Collection, string> = {
  clusters: 'cluster',
  platform_components: 'platform component',
  namespaces: 'namespace',
  rolebindings: 'rolebinding',
  rollouts: 'rollout',
};

/**
 * Why the record `id` cannot be as it is in `after`, or undefined when it may: `previous` is
 * the record in `before` (undefined when it was created). A record that is gone from `after`
 * must not be referenced there any more; one that is there must bring no new error, nor may
 * either make one in the rollouts around them (a cluster deleted from a released step).
 */
export function recordChangeRefusal(
  before: Snapshot,
  after: Snapshot,
  collection: Collection,
  id: string,
  previous: AnyRecord | undefined,
  receiverHosts?: ReceiverHosts,
): WriteRefusal | undefined {
  const record = after[collection].get(id);
  if (record === undefined && previous === undefined) return undefined;
  if (record === undefined) {
    const inUse = stillInUse(after, collection, id);
    if (inUse) return inUse;
  }
  // A cluster that is there keeps at least its generation (deleted and created again in one set too).
  const lowered =
    collection === 'clusters' && record !== undefined && previous !== undefined
      ? generationLowered(record as Cluster, (previous as Cluster).credential_generation ?? 0)
      : undefined;
  if (lowered) return invalidRecord(collection, id, [lowered]);
  // A receiver_url the write brings in must be one the service may call; one it leaves as it was stays.
  const url = collection === 'clusters' ? (record as Cluster | undefined)?.receiver_url : undefined;
  if (url != null && url !== (previous as Cluster | undefined)?.receiver_url) {
    const refused = receiverUrlProblem(record as Cluster, receiverHosts);
    if (refused && isError(refused)) return invalidRecord(collection, id, [refused]);
  }
  const both = [previous, record];
  const had = new Set(
    [
      ...(previous ? checkRecordChange(before, before, collection, previous) : []),
      ...checkRolloutsAround(before, collection, both),
    ]
      .filter(isError)
      .map(problemIdentity),
  );
  const found = [
    ...(record ? checkRecordChange(before, after, collection, record) : []),
    ...checkRolloutsAround(after, collection, both),
  ];
  const seen = new Set<string>();
  const problems = found.filter((p) => {
    const key = problemIdentity(p);
    if (!isError(p) || had.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (problems.length === 0) return undefined;
  if (collection === 'rollouts' && record !== undefined && problems.every((p) => p.code === 'duplicate_rollout')) {
    return rolloutTaken(after, id, (record as Rollout).component, problems);
  }
  return invalidRecord(collection, id, problems);
}

/** A second rollout of one component: a conflict with the rollout there is, whichever id sorts first. */
function rolloutTaken(after: Snapshot, id: string, component: string, problems: Problem[]): WriteRefusal {
  const others = rolloutsOfComponent(after, component)
    .map((r) => r.id)
    .filter((other) => other !== id);
  return {
    reason: 'conflict',
    message:
      `rollouts/${id} changes the catalog entry "${component}", which the rollout ${listNames(others)} changes ` +
      `already: ` +
      'one rollout per component at a time; complete or delete it first',
    problems,
    subject: { collection: 'rollouts', id },
  };
}

/** A deleted definition that clusters still reference, or a catalog entry others depend on: a conflict naming them. */
function stillInUse(after: Snapshot, collection: Collection, id: string): WriteRefusal | undefined {
  const key = { collection, id };
  if (collection !== 'clusters' && collection !== 'rollouts') {
    const clusters = referencingClusters(after, collection, id);
    if (clusters.length > 0) {
      return {
        reason: 'conflict',
        message:
          `${recordName(key)} is still referenced by clusters: ${listNames(clusters)}; remove those ` +
          `references first`,
        problems: [
          problem('still_referenced', { record: key, field: '' }, `referenced by ${clusters.length} cluster(s)`),
        ],
        subject: key,
      };
    }
  }
  if (collection === 'platform_components') {
    const entries = dependents(after, id);
    if (entries.length > 0) {
      return {
        reason: 'conflict',
        message:
          `${recordName(key)} is still a depends_on of catalog entries: ${listNames(entries)}; change their ` +
          `depends_on first`,
        problems: [
          problem(
            'still_referenced',
            { record: key, field: '' },
            `depended on by ${entries.length} catalog entr${entries.length === 1 ? 'y' : 'ies'}`,
          ),
        ],
        subject: key,
      };
    }
    const rollouts = rolloutsOfComponent(after, id).map((r) => r.id);
    if (rollouts.length > 0) {
      return {
        reason: 'conflict',
        message:
          `${recordName(key)} is still changed by rollouts: ${listNames(rollouts)}; complete or delete them first ` +
          '(completing folds their set into the entry)',
        problems: [problem('still_referenced', { record: key, field: '' }, `changed by ${rollouts.length} rollout(s)`)],
        subject: key,
      };
    }
  }
  return undefined;
}

/** A refusal naming every problem of a record (the first three in the message). */
export function invalidRecord(collection: Collection, id: string, problems: Problem[]): WriteRefusal {
  const own = (p: Problem) => !p.at.record || (p.at.record.collection === collection && p.at.record.id === id);
  const where = (p: Problem) => (own(p) ? p.at.field : '');
  const summary = problems
    .slice(0, 3)
    .map((p) => (where(p) ? `${where(p)}: ${p.message}` : p.message))
    .join('; ');
  const subject = { collection, id };
  const placed = problems.map((p) => (p.at.record ? p : { ...p, at: { ...p.at, record: subject } }));
  return {
    reason: 'invalid',
    message: `the ${SINGULAR[collection]} record is invalid: ${summary}${problems.length > 3 ? '; ...' : ''}`,
    problems: placed,
    subject,
  };
}

function listNames(ids: string[]): string {
  const shown = ids.slice(0, NAMES_IN_MESSAGE).join(', ');
  return ids.length > NAMES_IN_MESSAGE ? `${shown} and ${ids.length - NAMES_IN_MESSAGE} more` : shown;
}
