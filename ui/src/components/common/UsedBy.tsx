// Which clusters reference an entry: a count, opening to the list of links (the first 100).
import { href } from '../../router/router.ts';

const SHOWN = 100;

export function UsedBy({ clusters }: { clusters: readonly string[] | undefined }) {
  if (!clusters || clusters.length === 0) return <span class="muted">no cluster</span>;
  const label = `${clusters.length.toLocaleString()} cluster${clusters.length === 1 ? '' : 's'}`;
  return (
    <details class="used-by">
      <summary>{label}</summary>
      <ul>
        {clusters.slice(0, SHOWN).map((id) => (
          <li>
            <a href={href('clusters', id)}>{id}</a>
          </li>
        ))}
      </ul>
      {clusters.length > SHOWN && <p class="muted">and {(clusters.length - SHOWN).toLocaleString()} more</p>}
    </details>
  );
}
