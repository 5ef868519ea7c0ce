// In a preview, each rollout the change set creates, edits or deletes, step by step with the
// clusters of each step, as the service plans them (not worked out again here): which clusters a
// new rollout's canary is, and which come later, are read before anything is committed.
import type { RolloutPlanChange } from '../../api/types.ts';
import { href } from '../../router/router.ts';

/** Cluster ids shown per step; the rest are counted (a step of a large wave holds thousands). */
const SHOWN_PER_STEP = 100;

export function RolloutPlans({ rollouts }: { rollouts: RolloutPlanChange[] }) {
  if (rollouts.length === 0) return null;
  return (
    <>
      {rollouts.map((rollout) => (
        <RolloutPlan rollout={rollout} />
      ))}
    </>
  );
}

function RolloutPlan({ rollout }: { rollout: RolloutPlanChange }) {
  const status = rollout.status === 'added' ? 'new' : rollout.status === 'removed' ? 'deleted' : 'changed';
  const steps = rollout.steps.length;
  return (
    <section class="rollout-plan" aria-labelledby={`plan-${rollout.id}`}>
      <h3 id={`plan-${rollout.id}`}>
        Rollout {rollout.id} <span class="muted">({status})</span>
      </h3>
      <p>
        {rollout.component}: {steps === 1 ? '1 step' : `${steps} steps`}
        {rollout.status === 'removed'
          ? '.'
          : rollout.released === 0
            ? ', none released.'
            : `, ${rollout.released === 1 ? 'step 1' : `steps 1 to ${rollout.released}`} released.`}
      </p>
      <ol class="plan-steps" aria-label={`Steps of ${rollout.id}`}>
        {rollout.steps.map((step) => (
          <li>
            <p class="plan-step">
              <strong>Step {step.step}</strong> · wave {step.wave} ·{' '}
              {step.clusters.length === 1 ? '1 cluster' : `${step.clusters.length} clusters`}
              {rollout.status !== 'removed' && step.step <= rollout.released && (
                <span class="pill pill-tone-busy">released by this change</span>
              )}
            </p>
            <ul class="plan-clusters" aria-label={`Clusters of step ${step.step}`}>
              {step.clusters.slice(0, SHOWN_PER_STEP).map((id) => (
                <li>
                  <a href={href('clusters', id)}>{id}</a>
                </li>
              ))}
              {step.clusters.length > SHOWN_PER_STEP && (
                <li class="muted">and {(step.clusters.length - SHOWN_PER_STEP).toLocaleString()} more</li>
              )}
            </ul>
          </li>
        ))}
      </ol>
      {rollout.unassigned.length > 0 && (
        <p class="muted">
          In no wave, never changed by it: {rollout.unassigned.slice(0, SHOWN_PER_STEP).join(', ')}
          {rollout.unassigned.length > SHOWN_PER_STEP ? ` and ${rollout.unassigned.length - SHOWN_PER_STEP} more` : ''}
        </p>
      )}
    </section>
  );
}
