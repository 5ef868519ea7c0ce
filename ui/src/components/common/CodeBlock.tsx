// A JSON body shown two ways: pretty-printed for reading, or raw — the exact text as served,
// which is also what "Copy" copies.
import { useMemo, useState } from 'preact/hooks';

export function CodeBlock({ raw, label, id }: { raw: string; label: string; id: string }) {
  const [showRaw, setShowRaw] = useState(false);
  const [copied, setCopied] = useState<string>('');
  const pretty = useMemo(() => {
    try {
      return JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      return raw;
    }
  }, [raw]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(raw);
      setCopied('Copied the raw body.');
    } catch {
      setCopied('The browser did not allow copying; select the raw body instead.');
    }
  };
  return (
    <div class="code">
      <div class="code-tools">
        <button type="button" aria-pressed={showRaw} aria-controls={id} onClick={() => setShowRaw(!showRaw)}>
          Raw
        </button>
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <span class="muted" role="status">
          {copied}
        </span>
      </div>
      <pre
        id={id}
        tabIndex={0}
        aria-label={`${label}${showRaw ? ', raw' : ', pretty-printed'}`}
        data-view={showRaw ? 'raw' : 'pretty'}
      >
        {showRaw ? raw : pretty}
      </pre>
    </div>
  );
}
