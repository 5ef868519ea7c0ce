// The page of one kind of definition (./namespaces.tsx, ./rolebindings.tsx): a row per
// definition with its id, the kind's columns and the clusters that reference it. A person who
// may edit gets each row as a form (with a button to delete the definition) and a form to
// create one; definitions the change set creates or deletes are marked.
import type { ApiClient } from '../../api/client.ts';
import type { RecordsByCollection } from '../../api/types.ts';
import { DefinitionsPage } from '../../components/common/DefinitionsPage.tsx';
import { UsedBy } from '../../components/common/UsedBy.tsx';
import { CreateRecord } from '../../components/edits/CreateRecord.tsx';
import { DeleteRecord } from '../../components/edits/DeleteRecord.tsx';
import { EditError } from '../../components/edits/EditError.tsx';
import { useEdit } from '../../components/edits/use-edit.ts';
import { useEditing } from '../../edits/editing.ts';
import type { DefinitionCollection, DefinitionKind } from './definition-kind.ts';

export interface DefinitionPageProps<C extends DefinitionCollection> {
  client: ApiClient;
  kind: DefinitionKind<C>;
}

export function DefinitionPage<C extends DefinitionCollection>({ client, kind }: DefinitionPageProps<C>) {
  const { canEdit } = useEditing();
  const { collection, title, idHeader, noun, readOnlyHint, make, columns } = kind;
  return (
    <DefinitionsPage
      client={client}
      title={title}
      collection={collection}
      readOnlyHint={readOnlyHint}
      creator={<CreateRecord client={client} collection={collection} noun={noun} make={make} />}
    >
      {(rows, usage) => (
        <div class="table-scroll">
          <table class="records" aria-label={title}>
            <thead>
              <tr>
                <th scope="col">{idHeader}</th>
                {columns.map((column) => (
                  <th key={column.header} scope="col">
                    {column.header}
                  </th>
                ))}
                <th scope="col">Used by</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ id, stored, current }) =>
                canEdit && current ? (
                  <EditableRow
                    key={id}
                    client={client}
                    kind={kind}
                    stored={stored}
                    current={current}
                    users={usage[collection].get(id)}
                  />
                ) : (
                  <tr key={id}>
                    <th scope="row">
                      <span class="record-id">{id}</span>
                      {current === null && <div class="muted">deleted in the pending change set</div>}
                    </th>
                    {columns.map(({ header, Shown }) => (
                      <td key={header}>
                        <Shown record={(current ?? stored)!} />
                      </td>
                    ))}
                    <td>
                      <UsedBy clusters={usage[collection].get(id)} />
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </DefinitionsPage>
  );
}

interface EditableRowProps<C extends DefinitionCollection> {
  client: ApiClient;
  kind: DefinitionKind<C>;
  stored: RecordsByCollection[C] | null;
  current: RecordsByCollection[C];
  users: string[] | undefined;
}

function EditableRow<C extends DefinitionCollection>({ client, kind, stored, current, users }: EditableRowProps<C>) {
  const { edit, error } = useEdit(client, kind.collection, current.id);
  return (
    <tr>
      <th scope="row">
        <span class="record-id">{current.id}</span>
        {stored === null && <div class="muted">new in the pending change set</div>}
        <DeleteRecord client={client} collection={kind.collection} id={current.id} noun={kind.noun} />
        <EditError error={error} />
      </th>
      {kind.columns.map(({ header, Edited }) => (
        <td key={header}>
          <Edited stored={stored} current={current} edit={edit} />
        </td>
      ))}
      <td>
        <UsedBy clusters={users} />
      </td>
    </tr>
  );
}
