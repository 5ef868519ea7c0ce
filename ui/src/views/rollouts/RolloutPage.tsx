// One rollout: what it sets on which component, its state and the gate it waits at in the
// service's words, its waves and their steps, and every cluster with its state and since when.
// Asked again every few seconds while open; each refresh changes what moved in place, so
// nothing flickers and the clusters' table keeps its place. The commits that moved it, and for
// a person who may write, the actions on it (./RolloutActions.tsx); after a commit the page
// says what was stored, and reads the rollout again at once.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import type { RolloutDetail } from '../../api/types.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { RolloutStatePill } from '../../components/common/RolloutPill.tsx';
import { describeCounts, layOutRollout } from '../../data/rollout-rows.ts';
import { loadRollout } from '../../data/rollouts.ts';
import { useEditing } from '../../edits/editing.ts';
import { holdingBack } from '../../edits/rollout-actions.ts';
import type { CommitOutcome } from '../../edits/use-commit.ts';
import { usePolled } from '../../hooks/use-polled.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { href, type Location } from '../../router/router.ts';
import { OutcomeView } from '../changes/Outcome.tsx';
import { HeldBackBy } from './action-words.tsx';
import { progressText, RefreshFailed, REFRESH_MS, SetFields } from './rollout-facts.tsx';
import { RolloutActions } from './RolloutActions.tsx';
import { RolloutClusters } from './RolloutClusters.tsx';
import { RolloutSteps } from './RolloutSteps.tsx';
import { RolloutTimeline } from './RolloutTimeline.tsx';

export function RolloutPage({ client, id, location }: { client: ApiClient; id: string; location: Location }) {
  useTitle(`Rollout ${id}`);
  const { dataVersion } = useEditing();
  const answer = usePolled((signal) => loadRollout(client, id, signal), [client, id], REFRESH_MS, dataVersion);
  const [outcome, setOutcome] = useState<CommitOutcome | undefined>(undefined);
  const said = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome) said.current?.focus();
  }, [outcome]);
  return (
    <>
      <h1 tabIndex={-1}>{id}</h1>
      <p class="muted">
        A rollout · <a href={href('rollouts')}>every rollout</a>
      </p>
      <div ref={said} tabIndex={-1} class="outcome">
        <OutcomeView outcome={outcome} busy={false} />
      </div>
      <Loaded value={answer} what="the rollout">
        {(loaded) =>
          loaded.kind === 'off' ? (
            <Banner tone="info" title="Rollout progress is not available">
              <p>Where this rollout stands is not known: {loaded.message}.</p>
            </Banner>
          ) : loaded.kind === 'missing' ? (
            outcome?.kind === 'committed' ? (
              <Banner tone="info" title="The rollout is no more">
                <p>
                  The commit above removed it: its set is in the <a href={href('catalog')}>catalog</a> now.
                </p>
              </Banner>
            ) : (
              <Banner tone="error" title="No such rollout">
                <p>{loaded.message}</p>
              </Banner>
            )
          ) : (
            <>
              {answer.state === 'done' && <RefreshFailed error={answer.refreshFailed} />}
              <RolloutBody
                client={client}
                rollout={loaded.rollout}
                initial={location.search}
                onCommitted={setOutcome}
                refreshKey={dataVersion}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}

interface RolloutBodyProps {
  client: ApiClient;
  rollout: RolloutDetail;
  initial: URLSearchParams;
  onCommitted: (outcome: CommitOutcome) => void;
  refreshKey: number;
}

function RolloutBody({ client, rollout, initial, onCommitted, refreshKey }: RolloutBodyProps) {
  const layout = useMemo(() => layOutRollout(rollout), [rollout]);
  const [step, setStep] = useState(() => Number(initial.get('step')) || 0);
  const showStep = (n: number) => {
    setStep(n);
    document.getElementById('rollout-clusters')?.focus();
  };
  return (
    <>
      <section aria-labelledby="rollout-status">
        <h2 id="rollout-status">Where it stands</h2>
        <dl class="facts">
          <dt>Component</dt>
          <dd>{rollout.component}</dd>
          <dt>Sets</dt>
          <dd>
            <SetFields set={rollout.set} />
          </dd>
          <dt>State</dt>
          <dd>
            <RolloutStatePill state={rollout.state} />
          </dd>
          <dt>Gate</dt>
          <dd>
            <div class="reason" role="status">
              {rollout.reason}
            </div>
          </dd>
          <dt>Progress</dt>
          <dd>{progressText(rollout.released, rollout.steps.length)}</dd>
          <dt>Clusters</dt>
          <dd>{describeCounts(rollout.clusters)}</dd>
        </dl>
        {rollout.state === 'halted' && <HeldBackBy clusters={holdingBack(rollout)} />}
      </section>
      <RolloutActions client={client} detail={rollout} onCommitted={onCommitted} />
      <section aria-labelledby="rollout-steps">
        <h2 id="rollout-steps">Waves and steps</h2>
        <RolloutSteps waves={layout.waves} released={rollout.released} onShowStep={showStep} />
      </section>
      <RolloutTimeline client={client} id={rollout.id} refreshKey={refreshKey} />
      <section aria-labelledby="rollout-clusters">
        <h2 id="rollout-clusters" tabIndex={-1}>
          Clusters
        </h2>
        <RolloutClusters layout={layout} counts={rollout.clusters} step={step} onStep={setStep} initial={initial} />
      </section>
    </>
  );
}
