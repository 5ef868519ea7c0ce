// Starting a rollout of a catalog entry: the wave builder, for a person who may edit, with what
// it needs — the entry as stored, the clusters using it, and whether a rollout of it is under
// way already (one per component at a time). What the builder makes goes into the change set,
// to be previewed (with the clusters of every step) and committed like any other edit.
import type { ApiClient } from '../../api/client.ts';
import { fetchRecord } from '../../api/endpoints.ts';
import type { RolloutSummary } from '../../api/types.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { crudMode } from '../../data/capabilities.ts';
import { loadRecords } from '../../data/records.ts';
import { membersOf } from '../../data/rollout-draft.ts';
import { loadRollouts } from '../../data/rollouts.ts';
import { useEditing } from '../../edits/editing.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { href } from '../../router/router.ts';
import { WaveBuilder } from './WaveBuilder.tsx';

export function RolloutStartPage({ client, component }: { client: ApiClient; component: string }) {
  useTitle(`Roll out ${component}`);
  const { canEdit, dataVersion } = useEditing();
  const data = useAsync(async () => {
    if (!(await crudMode(client))) return { kind: 'read-only' as const };
    const [entry, clusters, rollouts] = await Promise.all([
      fetchRecord(client, 'platform_components', component, true),
      loadRecords(client, 'clusters'),
      loadRollouts(client),
    ]);
    const active: RolloutSummary | undefined =
      rollouts.kind === 'list' ? rollouts.list.rollouts.find((r) => r.component === component) : undefined;
    return { kind: 'loaded' as const, entry, members: membersOf(clusters, component), active };
  }, [client, component, dataVersion]);
  return (
    <>
      <h1 tabIndex={-1}>
        Roll out <span class="record-id">{component}</span> in waves
      </h1>
      <p class="crumbs">
        <a href={href('catalog')}>Catalog</a> · a change of one entry, taken to its clusters a step at a time
      </p>
      <Loaded value={data} what="the catalog entry and its clusters">
        {(loaded) => {
          if (loaded.kind === 'read-only' || !canEdit)
            return (
              <Banner tone="info" title="Starting a rollout is not available">
                <p>Rollouts are started in crud mode (API_MODE=crud) by a person or token with the write role.</p>
              </Banner>
            );
          if (loaded.entry.kind !== 'record')
            return (
              <Banner tone="error" title="No such catalog entry">
                <p>{loaded.entry.message}</p>
              </Banner>
            );
          if (loaded.active)
            return (
              <Banner tone="warning" title="A rollout of this component is under way">
                <p>
                  <a href={href('rollouts', loaded.active.id)}>{loaded.active.id}</a> rolls {component} out now; a
                  component has one rollout at a time. Complete it or roll it back first.
                </p>
              </Banner>
            );
          if (loaded.members.length === 0)
            return (
              <Banner tone="info" title="No cluster uses this component">
                <p>A rollout changes the clusters that use the entry; none does. Edit the version in the catalog.</p>
              </Banner>
            );
          return <WaveBuilder client={client} entry={loaded.entry.record} members={loaded.members} />;
        }}
      </Loaded>
    </>
  );
}
