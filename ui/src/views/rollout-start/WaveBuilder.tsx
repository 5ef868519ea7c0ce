// The wave builder: what to roll out (the new version and tag, the rollout's id), the canary
// cluster, the waves in order with their batch, soak and approval, and the gates of the whole
// rollout. It starts from the proposal (data/rollout-draft.ts) and checks every field before
// the record goes into the change set; the preview on the Changes page then lists the clusters
// of every step as the service plans them.
import { useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import type { PlatformComponentRecord } from '../../api/types.ts';
import { Banner } from '../../components/common/Banner.tsx';
import {
  type DraftProblem,
  type DraftWave,
  draftProblems,
  draftRecord,
  FIELD,
  type Member,
  proposeDraft,
  proposedId,
  type RolloutDraft,
} from '../../data/rollout-draft.ts';
import { editRecord } from '../../edits/edit-record.ts';
import { href, navigate } from '../../router/router.ts';
import { DraftField, fieldId } from './DraftField.tsx';
import { WaveList } from './WaveList.tsx';

interface WaveBuilderProps {
  client: ApiClient;
  entry: PlatformComponentRecord;
  members: readonly Member[];
}

export function WaveBuilder({ client, entry, members }: WaveBuilderProps) {
  const [draft, setDraft] = useState<RolloutDraft>(() => proposeDraft(entry, members));
  // The id and the tag follow the version until a person types one of their own.
  const [own, setOwn] = useState({ id: false, tag: entry.oci_tag !== entry.component_version });
  const [problems, setProblems] = useState<DraftProblem[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const errorOf = (field: string) => problems?.find((p) => p.field === field)?.message;
  const update = (next: Partial<RolloutDraft>) => setDraft((d) => ({ ...d, ...next }));

  const setVersion = (version: string) =>
    update({
      version,
      ...(own.tag ? {} : { tag: version }),
      ...(own.id ? {} : { id: proposedId(entry.id, version.trim()) }),
    });
  const setWaves = (waves: DraftWave[]) => update({ waves });

  const onSubmit = (event: Event) => {
    event.preventDefault();
    const found = draftProblems(draft, entry);
    setProblems(found);
    setFailure(undefined);
    if (found.length > 0) {
      document.getElementById(fieldId(found[0].field))?.focus();
      return;
    }
    editRecord(client, 'rollouts', draft.id, [{ kind: 'create', record: draftRecord(draft, entry) }]).then(
      () => navigate(href('changes')),
      (error: unknown) => setFailure((error as Error).message),
    );
  };

  return (
    <form class="wave-builder" aria-label="Wave builder" onSubmit={onSubmit} noValidate>
      <p>
        The catalog has <strong>{entry.component_version}</strong> (tag <code>{entry.oci_tag}</code>);{' '}
        {members.length === 1 ? '1 cluster uses' : `${members.length} clusters use`} it. The rollout gives its clusters
        the new version a step at a time; every other answer stays as it is.
      </p>
      <fieldset>
        <legend>What to roll out</legend>
        <DraftField label={FIELD.version} value={draft.version} error={errorOf(FIELD.version)} onInput={setVersion} />
        <DraftField
          label={FIELD.tag}
          value={draft.tag}
          error={errorOf(FIELD.tag)}
          onInput={(tag) => {
            setOwn((o) => ({ ...o, tag: true }));
            update({ tag });
          }}
        />
        <DraftField
          label={FIELD.id}
          value={draft.id}
          error={errorOf(FIELD.id)}
          hint="the file rollouts/<id>.yaml"
          onInput={(id) => {
            setOwn((o) => ({ ...o, id: true }));
            update({ id });
          }}
        />
      </fieldset>
      <WaveList waves={draft.waves} members={members} errorOf={errorOf} onChange={setWaves} />
      <fieldset>
        <legend>Gates of every step</legend>
        <DraftField
          label={FIELD.failureBudget}
          value={draft.failureBudget}
          error={errorOf(FIELD.failureBudget)}
          hint="clusters per step that may fail or be offline"
          inputMode="numeric"
          onInput={(failureBudget) => update({ failureBudget })}
        />
        <DraftField
          label={FIELD.progressDeadline}
          value={draft.progressDeadline}
          error={errorOf(FIELD.progressDeadline)}
          hint="a step not done within this halts the rollout"
          onInput={(progressDeadline) => update({ progressDeadline })}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={draft.startPaused}
            onChange={(event) => update({ startPaused: (event.target as HTMLInputElement).checked })}
          />
          Create it paused: release nothing yet
        </label>
        <p class="muted">
          {draft.startPaused
            ? 'No cluster changes when this is committed; resuming releases the first step.'
            : 'Committing releases step 1 (the canary) at once; the service releases each next step once its ' +
              'gates pass.'}
        </p>
      </fieldset>
      {problems && problems.length > 0 && (
        <Banner tone="error" title="Not added yet: some fields need a change">
          <ul class="problems">
            {problems.map((p) => (
              <li>
                <a href={`#${fieldId(p.field)}`}>{p.field}</a>: {p.message}
              </li>
            ))}
          </ul>
        </Banner>
      )}
      {failure && (
        <Banner tone="error" title="Not added to the change set">
          <p>{failure}</p>
        </Banner>
      )}
      <div class="buttons">
        <button type="submit">Add to the change set</button>
      </div>
      <p class="muted">The Changes page then previews it, with the clusters of every step, before you commit it.</p>
    </form>
  );
}
