// Namespace definitions: labels, annotations, and the clusters that reference each. A person
// who may edit changes labels and annotations, creates and deletes definitions.
import type { ApiClient } from '../../api/client.ts';
import type { NamespaceRecord } from '../../api/types.ts';
import { DefinitionsPage } from '../../components/common/DefinitionsPage.tsx';
import { UsedBy } from '../../components/common/UsedBy.tsx';
import { CreateRecord } from '../../components/edits/CreateRecord.tsx';
import { DeleteRecord } from '../../components/edits/DeleteRecord.tsx';
import { KeyValueEditor } from '../../components/edits/KeyValueEditor.tsx';
import { useEdit } from '../../components/edits/use-edit.ts';
import { EditError } from '../../components/edits/EditError.tsx';
import { useEditing } from '../../edits/editing.ts';

export function NamespacesPage({ client }: { client: ApiClient }) {
  const { canEdit } = useEditing();
  return (
    <DefinitionsPage
      client={client}
      title="Namespaces"
      collection="namespaces"
      readOnlyHint="Each cluster's page shows the namespaces it gets."
      creator={<CreateRecord client={client} collection="namespaces" noun="namespace" make={(id) => ({ id, labels: {}, annotations: {} })} />}
    >
      {(rows, usage) => (
        <table class="records" aria-label="Namespaces">
          <thead>
            <tr>
              <th scope="col">Namespace</th>
              <th scope="col">Labels</th>
              <th scope="col">Annotations</th>
              <th scope="col">Used by</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ id, stored, current }) =>
              canEdit && current ? (
                <EditableRow key={id} client={client} stored={stored} current={current} users={usage.namespaces.get(id)} />
              ) : (
                <tr key={id}>
                  <th scope="row">
                    {id}
                    {current === null && <div class="muted">deleted in the pending change set</div>}
                  </th>
                  <td>
                    <Pairs map={(current ?? stored)!.labels} />
                  </td>
                  <td>
                    <Pairs map={(current ?? stored)!.annotations} />
                  </td>
                  <td>
                    <UsedBy clusters={usage.namespaces.get(id)} />
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </DefinitionsPage>
  );
}

function EditableRow({ client, stored, current, users }: { client: ApiClient; stored: NamespaceRecord | null; current: NamespaceRecord; users: string[] | undefined }) {
  const { edit, error } = useEdit(client, 'namespaces', current.id);
  const set = (field: 'labels' | 'annotations') => (changes: { key: string; value: string | null }[]) =>
    edit(...changes.map(({ key, value }) => ({ kind: 'entry' as const, field, key, value })));
  return (
    <tr>
      <th scope="row">
        {current.id}
        {stored === null && <div class="muted">new in the pending change set</div>}
        <DeleteRecord client={client} collection="namespaces" id={current.id} noun="namespace" />
        <EditError error={error} />
      </th>
      <td>
        <KeyValueEditor what="label" owner={current.id} stored={stored?.labels ?? {}} current={current.labels} onSet={set('labels')} />
      </td>
      <td>
        <KeyValueEditor what="annotation" owner={current.id} stored={stored?.annotations ?? {}} current={current.annotations} onSet={set('annotations')} />
      </td>
      <td>
        <UsedBy clusters={users} />
      </td>
    </tr>
  );
}

function Pairs({ map }: { map: Record<string, string> }) {
  const entries = Object.entries(map);
  if (entries.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="pairs">
      {entries.map(([key, value]) => (
        <li>
          <code>
            {key}={value}
          </code>
        </li>
      ))}
    </ul>
  );
}
