// The rollouts this cluster is in: for each, its step and wave, the cluster's state in it and
// since when, and where the rollout as a whole stands.
import type { ApiClient } from '../../api/client.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { ClusterStatePill, RolloutStatePill } from '../../components/common/RolloutPill.tsx';
import { Time } from '../../components/common/Time.tsx';
import { loadClusterRollouts } from '../../data/cluster-rollouts.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { href } from '../../router/router.ts';

export function ClusterRollouts({ client, id }: { client: ApiClient; id: string }) {
  const rollouts = useAsync(() => loadClusterRollouts(client, id), [client, id]);
  return (
    <section aria-labelledby="rollouts">
      <h2 id="rollouts">Rollouts</h2>
      <Loaded value={rollouts} what="the rollouts">
        {(answer) =>
          answer.kind === 'off' ? (
            <p class="muted">Rollout progress is not available: {answer.message}.</p>
          ) : answer.entries.length === 0 ? (
            <p class="muted">This cluster is in no rollout.</p>
          ) : (
            <div class="table-scroll">
              <table class="records" aria-label={`Rollouts ${id} is in`}>
                <thead>
                  <tr>
                    <th scope="col">Rollout</th>
                    <th scope="col">Its step</th>
                    <th scope="col">Its state</th>
                    <th scope="col">The rollout</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.entries.map(({ rollout, step, wave, member }) => (
                    <tr key={rollout.id}>
                      <th scope="row">
                        <a href={href('rollouts', rollout.id)}>{rollout.id}</a>
                        <div class="muted">{rollout.component}</div>
                      </th>
                      <td>
                        Step {step}, wave {wave}
                      </td>
                      <td>
                        <ClusterStatePill state={member.state} />
                        <div class="muted">
                          since <Time iso={member.since} never="not released" />
                        </div>
                        {member.message && <div>{member.message}</div>}
                      </td>
                      <td>
                        <RolloutStatePill state={rollout.state} />
                        <div class="reason">{rollout.reason}</div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </section>
  );
}
