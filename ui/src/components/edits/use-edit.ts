// Edits of one record from a view: each goes into the change set (the first reads the record
// with its ETag, unless the view has it), and a failure is kept to be shown next to the form.
import { useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import type { Collection } from '../../api/types.ts';
import { editRecord, type KnownRecord } from '../../edits/edit-record.ts';
import type { EditOp } from '../../edits/record-edits.ts';

export interface RecordEdit {
  edit: (...ops: EditOp[]) => void;
  error: string | undefined;
}

export function useEdit(client: ApiClient, collection: Collection, id: string, known?: KnownRecord): RecordEdit {
  const [error, setError] = useState<string | undefined>(undefined);
  const edit = (...ops: EditOp[]) => {
    setError(undefined);
    editRecord(client, collection, id, ops, known).catch((failure: unknown) => setError((failure as Error).message));
  };
  return { edit, error };
}
