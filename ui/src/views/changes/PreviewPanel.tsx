// What a change set would do, before it is committed (POST /api/v2/gitops/changes/preview):
// whether the service would publish it, its problems, the shrink guard's verdict, and for
// every cluster whose answers change, per endpoint, the inputs added, removed and changed
// (each changed field before → after); and the steps of every rollout it creates or edits.
import type { ClusterChange, EndpointChange, GuardVerdict, Preview } from '../../api/types.ts';
import { Banner } from '../../components/common/Banner.tsx';
import { shown } from '../../edits/record-diff.ts';
import { href } from '../../router/router.ts';
import { ProblemList } from './ProblemList.tsx';
import { RolloutPlans } from './RolloutPlans.tsx';

export function PreviewPanel({ preview }: { preview: Preview }) {
  const guard = guardText(preview.guard);
  return (
    <section class="preview" aria-labelledby="preview-title">
      <h2 id="preview-title" tabIndex={-1}>
        Preview
      </h2>
      {preview.publishable ? (
        <Banner tone="info" title="The service would publish this change" />
      ) : (
        <Banner tone="error" title="The service would refuse this change">
          <p>Committing it would be refused: see the problems below.</p>
        </Banner>
      )}
      {guard && (
        <p class="guard">
          <strong>Shrink guard:</strong> {guard}
        </p>
      )}
      <ProblemList problems={preview.problems} label="Problems of the change" />
      <RolloutPlans rollouts={preview.rollouts} />
      <h3>
        {preview.clusters.length === 0
          ? 'No cluster’s answers change'
          : `${preview.clusters.length} cluster${preview.clusters.length === 1 ? '' : 's'} ` +
            `get${preview.clusters.length === 1 ? 's' : ''} different answers`}
      </h3>
      {preview.clusters.length > 0 && (
        <ul class="blast-radius" aria-label="Clusters this change affects">
          {preview.clusters.map((cluster) => (
            <ClusterItem cluster={cluster} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ClusterItem({ cluster }: { cluster: ClusterChange }) {
  return (
    <li>
      <p class="blast-cluster">
        <a href={href('clusters', cluster.id)}>{cluster.id}</a>
        {cluster.status !== 'changed' && <span class="muted"> ({cluster.status})</span>}
        {cluster.environment && <span class="muted"> · {cluster.environment}</span>}
      </p>
      {cluster.endpoints.map((endpoint) => (
        <EndpointItem endpoint={endpoint} />
      ))}
    </li>
  );
}

function EndpointItem({ endpoint }: { endpoint: EndpointChange }) {
  return (
    <div class="blast-endpoint">
      <p>
        <code>{endpoint.endpoint}</code>{' '}
        <span class="muted">
          {count(endpoint.before)} → {count(endpoint.after)} inputs
          {endpoint.emptied ? ', emptied: the cluster removes everything it rendered' : ''}
          {endpoint.oversized ? ', over 900 KiB: the cluster keeps its last answer' : ''}
          {endpoint.reordered ? ', reordered' : ''}
        </span>
      </p>
      <ul class="input-changes">
        {endpoint.added.map((id) => (
          <li class="added">
            added <code>{id}</code>
          </li>
        ))}
        {endpoint.removed.map((id) => (
          <li class="removed">
            removed <code>{id}</code>
          </li>
        ))}
        {endpoint.changed.map((input) => (
          <li class="changed">
            changed <code>{input.id}</code>:{' '}
            {input.fields.map((field, i) => (
              <>
                {i > 0 && '; '}
                <code>{field.field}</code> {shown(field.old)} → {shown(field.new)}
              </>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

function count(value: number | null): string {
  return value === null ? 'no cluster' : String(value);
}

/** The guard's verdict in words: whether it lets the change through, and what it finds. */
function guardText(guard: GuardVerdict | null | undefined): string | undefined {
  if (!guard) return undefined;
  const emptied = guard.emptied_clusters ?? [];
  const found: string[] = [];
  if (emptied.length > 0)
    found.push(
      `${emptied.length} cluster${emptied.length === 1 ? '' : 's'} would get an empty list ` +
        `(${emptied.map((e) => `${e.cluster}: ${e.endpoints.join(', ')}`).join('; ')})`,
    );
  if (guard.inputs_before !== undefined && guard.inputs_after !== undefined)
    found.push(`the fleet's inputs go from ${guard.inputs_before} to ${guard.inputs_after}`);
  const verdict =
    guard.verdict === 'pass'
      ? guard.shrink_allowed
        ? 'passes (the shrink is marked as meant)'
        : 'passes'
      : 'would refuse the change as a mass shrink';
  return `${verdict}${found.length ? `; ${found.join('; ')}` : ''}.`;
}
