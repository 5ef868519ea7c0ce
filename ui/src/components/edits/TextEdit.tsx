// A text field of an edit form. What the person types stays in the field (a re-render of the
// view does not reset it); the edit goes into the change set when the value is committed —
// Enter, or leaving the field — not on every keystroke.
import { useEffect, useState } from 'preact/hooks';

export interface TextEditProps {
  /** The accessible name, e.g. "Value of podinfo replicaCount". */
  label: string;
  value: string;
  onCommit: (value: string) => void;
  placeholder?: string;
  /** The value differs from the stored record's: marked as changed. */
  changed?: boolean;
  list?: string;
  class?: string;
}

export function TextEdit({ label, value, onCommit, placeholder, changed, list, class: className }: TextEditProps) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <input
      type="text"
      class={`edit${changed ? ' changed' : ''}${className ? ` ${className}` : ''}`}
      aria-label={label}
      value={draft}
      title={draft.length > 24 ? draft : undefined}
      placeholder={placeholder}
      list={list}
      autoComplete="off"
      spellcheck={false}
      onInput={(event) => setDraft((event.target as HTMLInputElement).value)}
      onChange={(event) => onCommit((event.target as HTMLInputElement).value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          onCommit((event.target as HTMLInputElement).value);
        }
      }}
    />
  );
}
