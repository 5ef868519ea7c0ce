// Small pieces the rollouts' list and a rollout's page share: what a rollout sets, how far it
// got, and the refresh that failed.
import type { RolloutSummary } from '../../api/types.ts';
import { Banner } from '../../components/common/Banner.tsx';

/** How often the rollout views ask again while open: a rollout moves with every poll. */
export const REFRESH_MS = 5_000;

/** What the released clusters get instead of the catalog's: `oci_tag 67.5.0`, one per line. */
export function SetFields({ set }: { set: RolloutSummary['set'] }) {
  const fields = Object.entries(set).filter(([, value]) => value !== undefined);
  return (
    <ul class="set-fields">
      {fields.map(([field, value]) => (
        <li>
          <code>{field}</code> {value}
        </li>
      ))}
    </ul>
  );
}

/** "Step 2 of 4 released", or none yet. */
export function progressText(released: number, steps: number): string {
  if (released === 0) return `No step of ${steps} released`;
  return `Step ${released} of ${steps} released`;
}

export function RefreshFailed({ error }: { error: Error | undefined }) {
  if (!error) return null;
  return (
    <Banner tone="warning" title="Not refreshed">
      <p>The last refresh failed ({error.message}); what is shown may be out of date. It is tried again.</p>
    </Banner>
  );
}
