// A rollout's waves, each with its steps in order: where each step stands (not released, the
// next, released and not done, soaking, done), when it was released and done, when its soak
// ends, and its clusters by state. A step's button narrows the clusters' table to it.
import { Time, utc } from '../../components/common/Time.tsx';
import { describeCounts, type StepPhase, stepPhase, type WaveSummary } from '../../data/rollout-rows.ts';

export interface RolloutStepsProps {
  waves: WaveSummary[];
  released: number;
  /** Shows the clusters of one step in the clusters' table. */
  onShowStep: (step: number) => void;
}

export function RolloutSteps({ waves, released, onShowStep }: RolloutStepsProps) {
  const now = Date.now();
  return (
    <>
      {waves.map((wave) => (
        <section class="wave" aria-labelledby={`wave-${wave.name}`}>
          <h3 id={`wave-${wave.name}`}>Wave {wave.name}</h3>
          <p class="muted">
            {clusters(wave.size)} in {wave.steps.length === 1 ? '1 step' : `${wave.steps.length} steps`}
          </p>
          <div class="table-scroll">
            <table class="records steps" aria-label={`Steps of wave ${wave.name}`}>
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col">Where it stands</th>
                  <th scope="col">Released</th>
                  <th scope="col">Done</th>
                  <th scope="col">Clusters</th>
                </tr>
              </thead>
              <tbody>
                {wave.steps.map(({ step, counts, size }) => {
                  const phase = stepPhase(step, released, now);
                  return (
                    <tr key={step.step} class={step.step === released ? 'current' : undefined}>
                      <th scope="row">
                        Step {step.step}
                        {step.step === released && <div class="muted">released last</div>}
                      </th>
                      <td>
                        {PHASES[phase]}
                        {phase === 'soaking' && step.soak_ends_at && <div>soak ends at {utc(step.soak_ends_at)}</div>}
                      </td>
                      <td>
                        <Time iso={step.released_at} never="not released" />
                      </td>
                      <td>
                        <Time iso={step.done_at} never="not done" />
                      </td>
                      <td>
                        <div>{describeCounts(counts)}</div>
                        <button type="button" class="link-button" onClick={() => onShowStep(step.step)}>
                          Show the {clusters(size)} of step {step.step}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
}

const PHASES: Record<StepPhase, string> = {
  pending: 'Not released',
  next: 'Next to release',
  released: 'Released, not done',
  soaking: 'Done, soaking',
  done: 'Done',
};

function clusters(count: number): string {
  return `${count.toLocaleString('en')} cluster${count === 1 ? '' : 's'}`;
}
