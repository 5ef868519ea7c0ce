// Role binding definitions: the role and its subjects. A person who may edit changes the role,
// removes subjects and adds them (a user, a group or a service account).
import { useState } from 'preact/hooks';
import type { RoleBindingRecord, Subject } from '../../api/types.ts';
import { TextEdit } from '../../components/edits/TextEdit.tsx';
import type { EditOp } from '../../edits/record-edits.ts';
import type { DefinitionKind } from './definition-kind.ts';

const RBAC = 'rbac.authorization.k8s.io';
const KINDS = ['User', 'Group', 'ServiceAccount'];

export const ROLE_BINDINGS: DefinitionKind<'rolebindings'> = {
  collection: 'rolebindings',
  title: 'Role bindings',
  idHeader: 'Role binding',
  noun: 'role binding',
  readOnlyHint: "Each cluster's page shows the role bindings it gets.",
  make: (id) => ({ id, role: 'view', subjects: [] }),
  columns: [
    {
      header: 'Role',
      Shown: ({ record }) => <>{record.role}</>,
      Edited: ({ stored, current, edit }) => (
        <TextEdit
          label={`Role of ${current.id}`}
          value={current.role}
          changed={stored?.role !== current.role}
          onCommit={(value) => edit({ kind: 'field', field: 'role', value: value.trim() })}
        />
      ),
    },
    {
      header: 'Subjects',
      Shown: ({ record }) => <Subjects subjects={record.subjects} />,
      Edited: (props) => <SubjectsEditor {...props} />,
    },
  ],
};

interface SubjectsProps {
  subjects: Subject[];
  /** The stored record's subjects: those not among them are marked as new. */
  stored?: Subject[];
  onRemove?: (subject: Subject) => void;
}

function Subjects({ subjects, stored, onRemove }: SubjectsProps) {
  if (subjects.length === 0) return <span class="muted">none</span>;
  const same = (a: Subject, b: Subject) => a.kind === b.kind && a.name === b.name && a.apiGroup === b.apiGroup;
  const isNew = (subject: Subject) => stored !== undefined && !stored.some((s) => same(s, subject));
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

interface SubjectsEditorProps {
  stored: RoleBindingRecord | null;
  current: RoleBindingRecord;
  edit: (...ops: EditOp[]) => void;
}

function SubjectsEditor({ stored, current, edit }: SubjectsEditorProps) {
  const [kind, setKind] = useState('Group');
  const [name, setName] = useState('');
  return (
    <>
      <Subjects
        subjects={current.subjects}
        stored={stored?.subjects ?? []}
        onRemove={(subject) => edit({ kind: 'subject', subject, present: false })}
      />
      <form
        class="add-row"
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return;
          const subject = { kind, name: name.trim(), apiGroup: kind === 'ServiceAccount' ? '' : RBAC };
          edit({ kind: 'subject', subject, present: true });
          setName('');
        }}
      >
        <select
          aria-label={`Kind of the new subject of ${current.id}`}
          value={kind}
          onChange={(event) => setKind((event.target as HTMLSelectElement).value)}
        >
          {KINDS.map((k) => (
            <option value={k}>{k}</option>
          ))}
        </select>
        <input
          type="text"
          aria-label={`Name of the new subject of ${current.id}`}
          placeholder="name"
          value={name}
          autoComplete="off"
          spellcheck={false}
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
        <button type="submit" class="small" disabled={!name.trim()}>
          Add <span class="visually-hidden">{`subject to ${current.id}`}</span>
        </button>
      </form>
    </>
  );
}
