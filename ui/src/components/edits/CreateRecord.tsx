// A form to create a definition in the change set: its id, then the rest of it on its row.
import { useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import type { Collection } from '../../api/types.ts';
import { editRecord } from '../../edits/edit-record.ts';
import type { AnyRecord } from '../../edits/record-edits.ts';
import { EditError } from './EditError.tsx';

export interface CreateRecordProps {
  client: ApiClient;
  collection: Collection;
  /** "namespace", "role binding". */
  noun: string;
  make: (id: string) => AnyRecord;
}

export function CreateRecord({ client, collection, noun, make }: CreateRecordProps) {
  const [id, setId] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const inputId = `new-${collection}`;
  return (
    <form
      class="add-row create-record"
      onSubmit={(event) => {
        event.preventDefault();
        const name = id.trim();
        if (!name) return;
        setError(undefined);
        editRecord(client, collection, name, [{ kind: 'create', record: make(name) }]).then(
          () => setId(''),
          (failure: unknown) => setError((failure as Error).message),
        );
      }}
    >
      <label for={inputId}>{`New ${noun}`}</label>
      <input
        id={inputId}
        type="text"
        value={id}
        placeholder="id"
        autoComplete="off"
        spellcheck={false}
        onInput={(event) => setId((event.target as HTMLInputElement).value)}
      />
      <button type="submit" disabled={!id.trim()}>
        {`Create ${noun}`}
      </button>
      <EditError error={error} />
    </form>
  );
}
