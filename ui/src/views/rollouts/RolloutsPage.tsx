// Every rollout the service serves: its component, what it sets, its state and why, how many
// of its steps are released and its clusters by state. Asked again every few seconds while
// open; a refresh changes the rows in place.
import type { ApiClient } from '../../api/client.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { RolloutStatePill } from '../../components/common/RolloutPill.tsx';
import { describeCounts } from '../../data/rollout-rows.ts';
import { loadRollouts } from '../../data/rollouts.ts';
import { usePolled } from '../../hooks/use-polled.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { href } from '../../router/router.ts';
import { progressText, RefreshFailed, REFRESH_MS, SetFields } from './rollout-facts.tsx';

export function RolloutsPage({ client }: { client: ApiClient }) {
  useTitle('Rollouts');
  const answer = usePolled((signal) => loadRollouts(client, signal), [client], REFRESH_MS);
  return (
    <>
      <h1 tabIndex={-1}>Rollouts</h1>
      <Loaded value={answer} what="the rollouts">
        {(loaded) => {
          if (loaded.kind === 'off') {
            return (
              <Banner tone="info" title="Rollout progress is not available">
                <p>Where a rollout stands is not known: {loaded.message}.</p>
              </Banner>
            );
          }
          const { rollouts } = loaded.list;
          return (
            <>
              {answer.state === 'done' && <RefreshFailed error={answer.refreshFailed} />}
              {rollouts.length === 0 ? (
                <p>No rollout is under way: a catalog change reaches every cluster that uses it at its next poll.</p>
              ) : (
                <div class="table-scroll">
                  <table class="records rollouts" aria-label="Rollouts">
                    <thead>
                      <tr>
                        <th scope="col">Rollout</th>
                        <th scope="col">State</th>
                        <th scope="col">Progress</th>
                        <th scope="col">Component</th>
                        <th scope="col">Sets</th>
                      </tr>
                    </thead>
                    <tbody>
                      {rollouts.map((rollout) => (
                        <tr key={rollout.id}>
                          <th scope="row">
                            <a href={href('rollouts', rollout.id)}>{rollout.id}</a>
                          </th>
                          <td class="reason-cell">
                            <RolloutStatePill state={rollout.state} />
                            <div class="reason">{rollout.reason}</div>
                          </td>
                          <td>
                            {progressText(rollout.released, rollout.steps)}
                            <div class="muted">{describeCounts(rollout.clusters)}</div>
                          </td>
                          <td>{rollout.component}</td>
                          <td>
                            <SetFields set={rollout.set} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}
