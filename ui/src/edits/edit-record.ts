// One edit of a record into the change set. The first edit of a record reads it from REST
// (GET /{collection}/{id}) unless the view holds it with its ETag already: the set keeps that
// version and ETag, so the commit refuses (412) if someone changed the record since it was
// read, instead of overwriting their change.
import type { ApiClient } from '../api/client.ts';
import { fetchRecord } from '../api/endpoints.ts';
import type { Collection } from '../api/types.ts';
import type { AnyRecord, EditOp } from './record-edits.ts';
import { changeSet, setChangeSet } from './use-change-set.ts';

export interface KnownRecord {
  record: AnyRecord;
  etag: string | null;
}

/** Puts the edits (in order) into the change set. */
export async function editRecord(
  client: ApiClient,
  collection: Collection,
  id: string,
  ops: EditOp[],
  known?: KnownRecord,
): Promise<void> {
  if (ops.length === 0) return;
  let base = baseInSet(collection, id);
  if (base === undefined && ops[0].kind !== 'create') {
    if (!known) {
      const answer = await fetchRecord(client, collection, id, true);
      if (answer.kind !== 'record') throw new Error(`${collection}/${id} cannot be edited: ${answer.message}`);
      known = { record: answer.record, etag: answer.etag };
    }
    // Read the set again after the wait: another edit may have put the record in it meanwhile.
    base = baseInSet(collection, id) ?? known;
  }
  const record = base?.record ?? null;
  const etag = base?.etag ?? null;
  setChangeSet(ops.reduce((set, op) => set.edit(collection, id, record, etag, op), changeSet()));
}

/** The version the set's edits of a record build on: undefined when the set has none, null for a record it creates. */
function baseInSet(collection: Collection, id: string): KnownRecord | null | undefined {
  const pending = changeSet().find(collection, id);
  if (!pending) return undefined;
  return pending.base === null ? null : { record: pending.base, etag: pending.etag };
}
