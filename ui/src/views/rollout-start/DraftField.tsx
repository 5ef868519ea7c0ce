// One text field of the wave builder: its label, the value as typed, a hint, and what is wrong
// with it once the person tried to add the rollout. Its element id comes from its label, so a
// problem in the list links to (and focuses) the field it names.
interface DraftFieldProps {
  label: string;
  value: string;
  error: string | undefined;
  hint?: string;
  inputMode?: 'numeric';
  onInput: (value: string) => void;
}

/** The element id of the field labelled `label`. */
export function fieldId(label: string): string {
  return `rollout-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

export function DraftField({ label, value, error, hint, inputMode, onInput }: DraftFieldProps) {
  const id = fieldId(label);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        class="edit"
        type="text"
        value={value}
        inputMode={inputMode}
        autoComplete="off"
        spellcheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => onInput((event.target as HTMLInputElement).value)}
      />
      {hint && (
        <span id={`${id}-hint`} class="muted small-print">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} class="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
