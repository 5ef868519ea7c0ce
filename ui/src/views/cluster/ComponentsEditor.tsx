// A cluster's components, for a person who may edit: enabled or not, a tag pin and a path
// override per component (empty: the catalog's), removing one, adding one from the catalog.
import { useState } from 'preact/hooks';
import type { ClusterRecord, PlatformComponentRecord } from '../../api/types.ts';
import type { RecordEdit } from '../../components/edits/use-edit.ts';
import { TextEdit } from '../../components/edits/TextEdit.tsx';

export interface ComponentsEditorProps {
  stored: ClusterRecord;
  current: ClusterRecord;
  catalog: readonly PlatformComponentRecord[];
  editor: RecordEdit;
}

export function ComponentsEditor({ stored, current, catalog, editor }: ComponentsEditorProps) {
  const { edit } = editor;
  const [adding, setAdding] = useState('');
  const byId = new Map(catalog.map((entry) => [entry.id, entry]));
  const storedRef = (id: string) => stored.platform_components.find((ref) => ref.id === id);
  const addable = catalog.filter((entry) => !current.platform_components.some((ref) => ref.id === entry.id));
  return (
    <section class="editor" aria-labelledby="edit-components">
      <h3 id="edit-components">Components</h3>
      <div class="table-scroll">
        <table class="records edit-table">
          <thead>
            <tr>
              <th scope="col">Component</th>
              <th scope="col">Enabled</th>
              <th scope="col">Tag pin</th>
              <th scope="col">Path override</th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {current.platform_components.map((ref) => {
              const before = storedRef(ref.id);
              const entry = byId.get(ref.id);
              return (
                <tr key={ref.id}>
                  <th scope="row">
                    <span class="record-id">{ref.id}</span>
                  </th>
                  <td>
                    <input
                      type="checkbox"
                      class={before?.enabled !== ref.enabled ? 'changed' : undefined}
                      aria-label={`${ref.id} enabled`}
                      checked={ref.enabled}
                      onChange={(event) =>
                        edit({
                          kind: 'component',
                          component: ref.id,
                          field: 'enabled',
                          value: (event.target as HTMLInputElement).checked,
                        })
                      }
                    />
                  </td>
                  <td>
                    <TextEdit
                      label={`Tag pin of ${ref.id}`}
                      value={ref.oci_tag ?? ''}
                      placeholder={entry ? `${entry.oci_tag} (catalog)` : 'catalog tag'}
                      changed={(before?.oci_tag ?? '') !== (ref.oci_tag ?? '')}
                      onCommit={(value) =>
                        edit({ kind: 'component', component: ref.id, field: 'oci_tag', value: value.trim() || null })
                      }
                    />
                  </td>
                  <td>
                    <TextEdit
                      label={`Path of ${ref.id}`}
                      value={ref.component_path ?? ''}
                      placeholder={entry ? `${entry.component_path} (catalog)` : 'catalog path'}
                      changed={(before?.component_path ?? '') !== (ref.component_path ?? '')}
                      onCommit={(value) =>
                        edit({
                          kind: 'component',
                          component: ref.id,
                          field: 'component_path',
                          value: value.trim() || null,
                        })
                      }
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="small"
                      onClick={() => edit({ kind: 'component-ref', component: ref.id, present: false })}
                    >
                      Remove <span class="visually-hidden">component {ref.id}</span>
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <form
        class="add-row"
        onSubmit={(event) => {
          event.preventDefault();
          if (!adding) return;
          edit({ kind: 'component-ref', component: adding, present: true });
          setAdding('');
        }}
      >
        <label for="add-component">Component to add</label>
        <select
          id="add-component"
          value={adding}
          onChange={(event) => setAdding((event.target as HTMLSelectElement).value)}
        >
          <option value="">Choose…</option>
          {addable.map((entry) => (
            <option value={entry.id}>{entry.id}</option>
          ))}
        </select>
        <button type="submit" disabled={!adding}>
          Add component
        </button>
      </form>
    </section>
  );
}
