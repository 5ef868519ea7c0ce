// The waves of the rollout being built, in order: each with what it selects (the canary's one
// cluster, or environments) and how many of the component's clusters that is, its name, batch,
// soak and approval; a wave can be merged into the one before it (dev, qa and uat as one
// non-prod wave) or removed. Every control is named by the wave's number, which stays put
// while its name is typed.
import { Banner } from '../../components/common/Banner.tsx';
import { type DraftWave, FIELD, type Member, mergeWaves, waveSizes } from '../../data/rollout-draft.ts';
import { DraftField, fieldId } from './DraftField.tsx';

/** Above this many clusters the canary is typed, not chosen from a list. */
const MAX_CHOICES = 2000;

interface WaveListProps {
  waves: DraftWave[];
  members: readonly Member[];
  errorOf: (field: string) => string | undefined;
  onChange: (waves: DraftWave[]) => void;
}

export function WaveList({ waves, members, errorOf, onChange }: WaveListProps) {
  const { sizes, left } = waveSizes(waves, members);
  const change = (i: number, next: Partial<DraftWave>) =>
    onChange(waves.map((w, k) => (k === i ? { ...w, ...next } : w)));
  return (
    <section class="waves" aria-labelledby="waves-title">
      <h2 id="waves-title">Waves</h2>
      <p class="muted">
        In order: a wave is the clusters it selects minus those of earlier waves, sorted by id and cut into steps of its
        batch. After each step is done (every cluster fetched it) its soak runs before the next step.
      </p>
      <ol class="wave-list">
        {waves.map((wave, i) => {
          const n = i + 1;
          const canary = wave.environments.length === 0 && wave.clusters.length === 1;
          const selects = canary
            ? 'its one cluster'
            : [...wave.environments, ...wave.clusters].join(', ') || 'nothing yet';
          return (
            <li key={i}>
              <fieldset>
                <legend>
                  Wave {n}: {wave.name || 'unnamed'}{' '}
                  <span class="muted">
                    · {sizes[i] === 1 ? '1 cluster' : `${sizes[i]} clusters`} ({selects})
                  </span>
                </legend>
                {canary && (
                  <CanaryField
                    value={wave.clusters[0]}
                    members={members}
                    onChange={(id) => change(i, { clusters: [id] })}
                  />
                )}
                <div class="wave-fields">
                  <DraftField
                    label={FIELD.waveName(n)}
                    value={wave.name}
                    error={errorOf(FIELD.waveName(n))}
                    onInput={(name) => change(i, { name })}
                  />
                  {!canary && (
                    <DraftField
                      label={FIELD.batch(n)}
                      value={wave.batch}
                      error={errorOf(FIELD.batch(n))}
                      hint="clusters per step: a number or a %; empty: the whole wave at once"
                      onInput={(batch) => change(i, { batch })}
                    />
                  )}
                  <DraftField
                    label={FIELD.soak(n)}
                    value={wave.soak}
                    error={errorOf(FIELD.soak(n))}
                    hint="after each step is done, before the next"
                    onInput={(soak) => change(i, { soak })}
                  />
                </div>
                <label class="check">
                  <input
                    type="checkbox"
                    checked={wave.approval}
                    onChange={(event) => change(i, { approval: (event.target as HTMLInputElement).checked })}
                  />
                  Wave {n} waits for a person's approval
                </label>
                <div class="buttons">
                  {i > 0 && wave.environments.length > 0 && waves[i - 1].environments.length > 0 && (
                    <button type="button" onClick={() => onChange(mergeWaves(waves, i - 1))}>
                      Merge wave {n} into wave {n - 1}
                    </button>
                  )}
                  {waves.length > 1 && (
                    <button type="button" class="danger" onClick={() => onChange(waves.filter((_, k) => k !== i))}>
                      Remove wave {n}
                    </button>
                  )}
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {left > 0 && (
        <Banner tone="warning" title={`${left === 1 ? '1 cluster is' : `${left} clusters are`} in no wave`}>
          <p>The rollout never changes them: they keep the catalog's version until it is completed.</p>
        </Banner>
      )}
    </section>
  );
}

function CanaryField({
  value,
  members,
  onChange,
}: {
  value: string;
  members: readonly Member[];
  onChange: (id: string) => void;
}) {
  const id = fieldId(FIELD.canary);
  if (members.length > MAX_CHOICES)
    return (
      <DraftField
        label={FIELD.canary}
        value={value}
        error={members.some((m) => m.id === value) ? undefined : 'not a cluster that uses the component'}
        onInput={onChange}
      />
    );
  return (
    <div class="field">
      <label for={id}>{FIELD.canary}</label>
      <select id={id} value={value} onChange={(event) => onChange((event.target as HTMLSelectElement).value)}>
        {members.map((m) => (
          <option value={m.id}>
            {m.id} ({m.environment})
          </option>
        ))}
      </select>
    </div>
  );
}
