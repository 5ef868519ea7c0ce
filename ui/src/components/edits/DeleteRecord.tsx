// Deleting a definition in the change set. The service refuses the set (409) while a cluster
// still references it, naming the clusters; removing those references in the same set is fine.
import type { ApiClient } from '../../api/client.ts';
import type { Collection } from '../../api/types.ts';
import { editRecord } from '../../edits/edit-record.ts';

export function DeleteRecord({
  client,
  collection,
  id,
  noun,
}: {
  client: ApiClient;
  collection: Collection;
  id: string;
  noun: string;
}) {
  return (
    <button
      type="button"
      class="small danger"
      onClick={() => void editRecord(client, collection, id, [{ kind: 'delete' }]).catch(() => undefined)}
    >
      Delete <span class="visually-hidden">{`${noun} ${id}`}</span>
    </button>
  );
}
