// A cluster's patches (Helm values per component) as key/value rows: change a value or a key,
// remove a row, add one for any of the cluster's components.
import { useState } from 'preact/hooks';
import type { ClusterRecord } from '../../api/types.ts';
import { TextEdit } from '../../components/edits/TextEdit.tsx';
import type { RecordEdit } from '../../components/edits/use-edit.ts';

export interface PatchesEditorProps {
  stored: ClusterRecord;
  current: ClusterRecord;
  editor: RecordEdit;
}

export function PatchesEditor({ stored, current, editor }: PatchesEditorProps) {
  const { edit } = editor;
  const [chosen, setComponent] = useState('');
  // The first of the cluster's components until another is chosen (and when the chosen one is removed).
  const component = current.platform_components.some((ref) => ref.id === chosen)
    ? chosen
    : (current.platform_components[0]?.id ?? '');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const components = Object.keys(current.patches ?? {});
  const add = (event: Event) => {
    event.preventDefault();
    if (!component || !key.trim()) return;
    edit({ kind: 'patch', component, key: key.trim(), value });
    setKey('');
    setValue('');
  };
  return (
    <section class="editor" aria-labelledby="edit-patches">
      <h3 id="edit-patches">Patches</h3>
      {components.length === 0 && <p class="muted">No patches: every component gets the catalog's values.</p>}
      {components.map((name) => {
        const rows = Object.entries(current.patches[name] ?? {});
        const before = stored.patches?.[name] ?? {};
        return (
          <div class="table-scroll">
            <table class="records edit-table" aria-label={`Patches of ${name}`}>
              <caption>{name}</caption>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Value</th>
                  <th scope="col">
                    <span class="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map(([k, v]) => (
                  <tr key={k}>
                    <td>
                      <TextEdit
                        label={`Key of ${name} ${k}`}
                        value={k}
                        changed={!Object.hasOwn(before, k)}
                        onCommit={(renamed) => {
                          const to = renamed.trim();
                          if (to && to !== k)
                            edit(
                              { kind: 'patch', component: name, key: k, value: null },
                              { kind: 'patch', component: name, key: to, value: v },
                            );
                        }}
                      />
                    </td>
                    <td>
                      <TextEdit
                        label={`Value of ${name} ${k}`}
                        value={v}
                        changed={before[k] !== v}
                        onCommit={(next) => edit({ kind: 'patch', component: name, key: k, value: next })}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        class="small"
                        onClick={() => edit({ kind: 'patch', component: name, key: k, value: null })}
                      >
                        Remove <span class="visually-hidden">{`${name} ${k}`}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
      {current.platform_components.length > 0 && (
        <form class="add-row" onSubmit={add}>
          <label for="patch-component">Component</label>
          <select
            id="patch-component"
            value={component}
            onChange={(event) => setComponent((event.target as HTMLSelectElement).value)}
          >
            {current.platform_components.map((ref) => (
              <option value={ref.id}>{ref.id}</option>
            ))}
          </select>
          <label for="patch-key">New patch key</label>
          <input
            id="patch-key"
            type="text"
            value={key}
            autoComplete="off"
            spellcheck={false}
            onInput={(event) => setKey((event.target as HTMLInputElement).value)}
          />
          <label for="patch-value">New patch value</label>
          <input
            id="patch-value"
            type="text"
            value={value}
            autoComplete="off"
            spellcheck={false}
            onInput={(event) => setValue((event.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={!key.trim()}>
            Add patch value
          </button>
        </form>
      )}
    </section>
  );
}
