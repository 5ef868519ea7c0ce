// The catalog: each platform component with its version, artifact and the clusters that use
// it (and those that pin another tag). From the records (crud mode): two requests for the
// whole fleet, where reading each cluster's platform-components answer would be one per cluster.
// A person who may edit changes an entry's version, tag and other fields in place, or rolls a
// new version out in waves (the wave builder). An entry being rolled out names its rollout and
// where it stands.
import type { ApiClient } from '../../api/client.ts';
import type { PlatformComponentRecord, RolloutSummary } from '../../api/types.ts';
import { DefinitionsPage } from '../../components/common/DefinitionsPage.tsx';
import { UsedBy } from '../../components/common/UsedBy.tsx';
import { RolloutStatePill } from '../../components/common/RolloutPill.tsx';
import { loadRollouts } from '../../data/rollouts.ts';
import { useEditing } from '../../edits/editing.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { href } from '../../router/router.ts';
import { CatalogVersionFields } from './CatalogEntryEditor.tsx';

export function CatalogPage({ client }: { client: ApiClient }) {
  const { canEdit } = useEditing();
  const rollouts = useAsync(() => loadRollouts(client), [client]);
  const active = new Map<string, RolloutSummary>();
  const known = rollouts.state === 'done' && rollouts.value.kind === 'list';
  if (rollouts.state === 'done' && rollouts.value.kind === 'list') {
    for (const rollout of rollouts.value.list.rollouts) active.set(rollout.component, rollout);
  }
  return (
    <DefinitionsPage
      client={client}
      title="Catalog"
      collection="platform_components"
      readOnlyHint="Each cluster's page shows the components it gets, with their versions."
    >
      {(rows, usage) => (
        <div class="table-scroll">
          <table class="records catalog-table" aria-label="Platform components">
            <thead>
              <tr>
                <th scope="col">Component</th>
                <th scope="col">Version</th>
                <th scope="col">Artifact</th>
                <th scope="col">Depends on</th>
                <th scope="col">Used by</th>
                <th scope="col">Rollout</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ id, stored, current }) => {
                const component = (current ?? stored) as PlatformComponentRecord;
                const use = usage.components.get(id);
                return (
                  <tr key={id}>
                    <th scope="row">
                      <span class="record-id">{id}</span>
                      {current === null && <div class="muted">deleted in the pending change set</div>}
                    </th>
                    {canEdit && current && stored ? (
                      <CatalogVersionFields
                        client={client}
                        stored={stored}
                        current={current}
                        canRollOut={known && !active.has(id)}
                      />
                    ) : (
                      <>
                        <td>{component.component_version}</td>
                        <td>
                          <code>
                            {component.oci_url}:{component.oci_tag}
                          </code>
                          <div class="muted">
                            path {component.component_path}
                            {component.cluster_env_enabled ? '/<environment>' : ''}
                          </div>
                        </td>
                      </>
                    )}
                    <td>
                      {component.depends_on.length ? (
                        component.depends_on.join(', ')
                      ) : (
                        <span class="muted">nothing</span>
                      )}
                    </td>
                    <td>
                      <UsedBy clusters={use?.clusters} />
                      {use && use.pins.length > 0 && (
                        <div class="muted">
                          {use.pins.length === 1 ? '1 cluster pins' : `${use.pins.length} clusters pin`} another tag (
                          {[...new Set(use.pins.map((pin) => pin.tag))].slice(0, 5).join(', ')})
                        </div>
                      )}
                      {use && use.disabled > 0 && <div class="muted">{use.disabled} disabled</div>}
                    </td>
                    <td>
                      <ActiveRollout rollout={active.get(id)} known={known} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </DefinitionsPage>
  );
}

/** The rollout of this entry under way, if any: its link, state and how far it got. */
function ActiveRollout({ rollout, known }: { rollout: RolloutSummary | undefined; known: boolean }) {
  if (!rollout) return <span class="muted">{known ? 'none' : 'not known'}</span>;
  return (
    <>
      <a href={href('rollouts', rollout.id)}>{rollout.id}</a>
      <div>
        <RolloutStatePill state={rollout.state} /> step {rollout.released} of {rollout.steps}
      </div>
    </>
  );
}
