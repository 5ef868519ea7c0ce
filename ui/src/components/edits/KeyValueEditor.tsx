// A map of strings (a namespace's labels or annotations) as key/value rows: change a value or
// a key, remove a row, add one.
import { useState } from 'preact/hooks';
import { TextEdit } from './TextEdit.tsx';

export interface KeyValueEditorProps {
  /** For accessible names: "Label of team-a", "team-a label team". */
  what: string;
  owner: string;
  stored: Record<string, string>;
  current: Record<string, string>;
  /** Sets a key (null removes it). */
  onSet: (changes: { key: string; value: string | null }[]) => void;
}

export function KeyValueEditor({ what, owner, stored, current, onSet }: KeyValueEditorProps) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const entries = Object.entries(current);
  return (
    <div class="kv-editor">
      {entries.length > 0 && (
        <ul class="kv-rows">
          {entries.map(([k, v]) => (
            <li key={k}>
              <TextEdit
                label={`${what} key ${k} of ${owner}`}
                value={k}
                changed={!Object.hasOwn(stored, k)}
                onCommit={(renamed) => {
                  const to = renamed.trim();
                  if (to && to !== k)
                    onSet([
                      { key: k, value: null },
                      { key: to, value: v },
                    ]);
                }}
              />
              <span aria-hidden="true">=</span>
              <TextEdit
                label={`${what} ${k} of ${owner}`}
                value={v}
                changed={stored[k] !== v}
                onCommit={(next) => onSet([{ key: k, value: next }])}
              />
              <button type="button" class="small" onClick={() => onSet([{ key: k, value: null }])}>
                Remove <span class="visually-hidden">{`${what} ${k} of ${owner}`}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="add-row"
        onSubmit={(event) => {
          event.preventDefault();
          if (!key.trim()) return;
          onSet([{ key: key.trim(), value }]);
          setKey('');
          setValue('');
        }}
      >
        <input
          type="text"
          aria-label={`New ${what} key of ${owner}`}
          placeholder="key"
          value={key}
          autoComplete="off"
          spellcheck={false}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)}
        />
        <input
          type="text"
          aria-label={`New ${what} value of ${owner}`}
          placeholder="value"
          value={value}
          autoComplete="off"
          spellcheck={false}
          onInput={(event) => setValue((event.target as HTMLInputElement).value)}
        />
        <button type="submit" class="small" disabled={!key.trim()}>
          Add <span class="visually-hidden">{`${what} to ${owner}`}</span>
        </button>
      </form>
    </div>
  );
}
