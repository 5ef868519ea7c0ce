// Role binding definitions: the role, its subjects, and the clusters that reference each. A
// person who may edit changes the role and the subjects, creates and deletes definitions.
import { useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import type { RoleBindingRecord, Subject } from '../../api/types.ts';
import { DefinitionsPage } from '../../components/common/DefinitionsPage.tsx';
import { UsedBy } from '../../components/common/UsedBy.tsx';
import { CreateRecord } from '../../components/edits/CreateRecord.tsx';
import { DeleteRecord } from '../../components/edits/DeleteRecord.tsx';
import { EditError } from '../../components/edits/EditError.tsx';
import { TextEdit } from '../../components/edits/TextEdit.tsx';
import { useEdit } from '../../components/edits/use-edit.ts';
import { useEditing } from '../../edits/editing.ts';

const RBAC = 'rbac.authorization.k8s.io';
const KINDS = ['User', 'Group', 'ServiceAccount'];

export function RoleBindingsPage({ client }: { client: ApiClient }) {
  const { canEdit } = useEditing();
  return (
    <DefinitionsPage
      client={client}
      title="Role bindings"
      collection="rolebindings"
      readOnlyHint="Each cluster's page shows the role bindings it gets."
      creator={<CreateRecord client={client} collection="rolebindings" noun="role binding" make={(id) => ({ id, role: 'view', subjects: [] })} />}
    >
      {(rows, usage) => (
        <table class="records" aria-label="Role bindings">
          <thead>
            <tr>
              <th scope="col">Role binding</th>
              <th scope="col">Role</th>
              <th scope="col">Subjects</th>
              <th scope="col">Used by</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ id, stored, current }) =>
              canEdit && current ? (
                <EditableRow key={id} client={client} stored={stored} current={current} users={usage.rolebindings.get(id)} />
              ) : (
                <tr key={id}>
                  <th scope="row">
                    {id}
                    {current === null && <div class="muted">deleted in the pending change set</div>}
                  </th>
                  <td>{(current ?? stored)!.role}</td>
                  <td>
                    <Subjects subjects={(current ?? stored)!.subjects} />
                  </td>
                  <td>
                    <UsedBy clusters={usage.rolebindings.get(id)} />
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

function Subjects({ subjects, stored, onRemove }: { subjects: Subject[]; stored?: Subject[]; onRemove?: (subject: Subject) => void }) {
  if (subjects.length === 0) return <span class="muted">none</span>;
  const isNew = (subject: Subject) => stored !== undefined && !stored.some((s) => s.kind === subject.kind && s.name === subject.name && s.apiGroup === subject.apiGroup);
  return (
    <ul class="pairs">
      {subjects.map((subject) => (
        <li class={isNew(subject) ? 'changed' : undefined}>
          {subject.kind} <code>{subject.name}</code>
          {onRemove && (
            <button type="button" class="small" onClick={() => onRemove(subject)}>
              Remove <span class="visually-hidden">{`${subject.kind} ${subject.name}`}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function EditableRow({ client, stored, current, users }: { client: ApiClient; stored: RoleBindingRecord | null; current: RoleBindingRecord; users: string[] | undefined }) {
  const { edit, error } = useEdit(client, 'rolebindings', current.id);
  const [kind, setKind] = useState('Group');
  const [name, setName] = useState('');
  return (
    <tr>
      <th scope="row">
        {current.id}
        {stored === null && <div class="muted">new in the pending change set</div>}
        <DeleteRecord client={client} collection="rolebindings" id={current.id} noun="role binding" />
        <EditError error={error} />
      </th>
      <td>
        <TextEdit label={`Role of ${current.id}`} value={current.role} changed={stored?.role !== current.role} onCommit={(value) => edit({ kind: 'field', field: 'role', value: value.trim() })} />
      </td>
      <td>
        <Subjects subjects={current.subjects} stored={stored?.subjects ?? []} onRemove={(subject) => edit({ kind: 'subject', subject, present: false })} />
        <form
          class="add-row"
          onSubmit={(event) => {
            event.preventDefault();
            if (!name.trim()) return;
            edit({ kind: 'subject', subject: { kind, name: name.trim(), apiGroup: kind === 'ServiceAccount' ? '' : RBAC }, present: true });
            setName('');
          }}
        >
          <select aria-label={`Kind of the new subject of ${current.id}`} value={kind} onChange={(event) => setKind((event.target as HTMLSelectElement).value)}>
            {KINDS.map((k) => (
              <option value={k}>{k}</option>
            ))}
          </select>
          <input type="text" aria-label={`Name of the new subject of ${current.id}`} placeholder="name" value={name} autoComplete="off" spellcheck={false} onInput={(event) => setName((event.target as HTMLInputElement).value)} />
          <button type="submit" class="small" disabled={!name.trim()}>
            Add <span class="visually-hidden">{`subject to ${current.id}`}</span>
          </button>
        </form>
      </td>
      <td>
        <UsedBy clusters={users} />
      </td>
    </tr>
  );
}
