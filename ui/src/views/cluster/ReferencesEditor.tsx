// The namespaces or role bindings a cluster references: remove one, add one by its id. The
// id is typed (with the definitions as suggestions), so a definition created in the same
// change set can be referenced; one that exists nowhere is refused when the set is committed.
import { useState } from 'preact/hooks';
import type { ClusterRecord } from '../../api/types.ts';
import type { RecordEdit } from '../../components/edits/use-edit.ts';
import type { ReferenceList } from '../../edits/record-edits.ts';
import { href } from '../../router/router.ts';

const WORDS: Record<ReferenceList, { title: string; one: string; page: string }> = {
  namespaces: { title: 'Namespaces', one: 'namespace', page: 'namespaces' },
  rolebindings: { title: 'Role bindings', one: 'role binding', page: 'rolebindings' },
};

export interface ReferencesEditorProps {
  list: ReferenceList;
  stored: ClusterRecord;
  current: ClusterRecord;
  /** Ids of the definitions, offered as suggestions. */
  known: readonly string[];
  editor: RecordEdit;
}

export function ReferencesEditor({ list, stored, current, known, editor }: ReferencesEditorProps) {
  const words = WORDS[list];
  const [adding, setAdding] = useState('');
  const refs = current[list] ?? [];
  const storedIds = new Set((stored[list] ?? []).map((ref) => ref.id));
  const add = (event: Event) => {
    event.preventDefault();
    const ref = adding.trim();
    if (!ref) return;
    editor.edit({ kind: 'ref', list, ref, present: true });
    setAdding('');
  };
  return (
    <section class="editor" aria-labelledby={`edit-${list}`}>
      <h3 id={`edit-${list}`}>{words.title}</h3>
      {refs.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="refs">
          {refs.map((ref) => (
            <li key={ref.id} class={storedIds.has(ref.id) ? undefined : 'changed'}>
              <a href={href(words.page)}>{ref.id}</a>
              <button
                type="button"
                class="small"
                onClick={() => editor.edit({ kind: 'ref', list, ref: ref.id, present: false })}
              >
                Remove <span class="visually-hidden">{`${words.one} ${ref.id}`}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="add-row" onSubmit={add}>
        <label for={`add-${list}`}>{`Add ${words.one}`}</label>
        <input
          id={`add-${list}`}
          type="text"
          list={`known-${list}`}
          value={adding}
          autoComplete="off"
          spellcheck={false}
          onInput={(event) => setAdding((event.target as HTMLInputElement).value)}
        />
        <datalist id={`known-${list}`}>
          {known
            .filter((id) => !refs.some((ref) => ref.id === id))
            .map((id) => (
              <option value={id} />
            ))}
        </datalist>
        <button type="submit" disabled={!adding.trim()}>
          Add <span class="visually-hidden">{words.one}</span>
        </button>
      </form>
    </section>
  );
}
