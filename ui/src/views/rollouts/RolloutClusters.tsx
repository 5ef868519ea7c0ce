// Every cluster of a rollout with its step, wave, state, since when, and what it reported or
// why it is offline: a search and filters by step and state, kept in the URL's query, and the
// rows in view only (components/common/VirtualTable.tsx), so 50,000 clusters stay fluent. A
// refresh of the rollout changes the rows in place: the table keeps its scroll position; only
// a new filter takes it back to the top.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ROLLOUT_CLUSTER_STATES, type RolloutClusterCounts } from '../../api/types.ts';
import { CLUSTER_STATE_LABELS, ClusterStatePill } from '../../components/common/RolloutPill.tsx';
import { Time } from '../../components/common/Time.tsx';
import { VirtualTable } from '../../components/common/VirtualTable.tsx';
import { filterRolloutRows, type RolloutLayout } from '../../data/rollout-rows.ts';
import { href, replaceSearch } from '../../router/router.ts';

const ROW_HEIGHT = 36;

const COLUMNS = [
  { label: 'Cluster', className: 'r-id' },
  { label: 'State', className: 'r-state' },
  { label: 'Since', className: 'r-since' },
  { label: 'Step', className: 'r-step' },
  { label: 'Wave', className: 'r-wave' },
  { label: 'Message', className: 'r-message' },
];

export interface RolloutClustersProps {
  layout: RolloutLayout;
  counts: RolloutClusterCounts;
  /** The step shown (0: every step), kept by the page so that a step's button can set it. */
  step: number;
  onStep: (step: number) => void;
  initial: URLSearchParams;
}

export function RolloutClusters({ layout, counts, step, onStep, initial }: RolloutClustersProps) {
  const { rows, waves, waveOf } = layout;
  const [query, setQuery] = useState(initial.get('q') ?? '');
  const [state, setState] = useState(initial.get('state') ?? '');
  const matches = useMemo(() => filterRolloutRows(rows, { query, step, state }), [rows, query, step, state]);

  useEffect(() => {
    const search = new URLSearchParams();
    if (query) search.set('q', query);
    if (step) search.set('step', String(step));
    if (state) search.set('state', state);
    replaceSearch(search);
  }, [query, step, state]);

  return (
    <>
      <form class="filters" role="search" aria-label="Clusters of the rollout" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="rollout-search">Search the rollout's clusters</label>
          <input
            id="rollout-search"
            type="search"
            value={query}
            onInput={(event) => setQuery((event.target as HTMLInputElement).value)}
            placeholder="cluster id"
            autoComplete="off"
            spellcheck={false}
          />
        </div>
        <div class="field">
          <label for="rollout-step">Step</label>
          <select
            id="rollout-step"
            value={String(step)}
            onChange={(e) => onStep(Number((e.target as HTMLSelectElement).value))}
          >
            <option value="0">All steps</option>
            {waves.flatMap((wave) =>
              wave.steps.map(({ step: s, size }) => (
                <option value={String(s.step)}>
                  Step {s.step}, wave {wave.name} ({size.toLocaleString('en')})
                </option>
              )),
            )}
          </select>
        </div>
        <div class="field">
          <label for="rollout-state">State</label>
          <select id="rollout-state" value={state} onChange={(e) => setState((e.target as HTMLSelectElement).value)}>
            <option value="">All</option>
            {ROLLOUT_CLUSTER_STATES.map((name) => (
              <option value={name}>
                {CLUSTER_STATE_LABELS[name]} ({counts[name].toLocaleString('en')})
              </option>
            ))}
          </select>
        </div>
      </form>
      <p class="shown" role="status">
        Showing {matches.length.toLocaleString('en')} of {rows.count.toLocaleString('en')} clusters
      </p>
      <div class="rollout-clusters">
        <VirtualTable
          label="Clusters of the rollout"
          columns={COLUMNS}
          rowCount={matches.length}
          rowHeight={ROW_HEIGHT}
          resetKey={`${query}\n${step}\n${state}`}
          rowKey={(i) => rows.id[matches[i]]}
          row={(i) => {
            const r = matches[i];
            const id = rows.id[r];
            const message = rows.message[r];
            return (
              <>
                <td class="r-id">
                  <a href={href('clusters', id)}>{id}</a>
                </td>
                <td class="r-state">
                  <ClusterStatePill state={rows.state[r]} />
                </td>
                <td class="r-since">
                  <Time iso={rows.since[r]} never="not released" />
                </td>
                <td class="r-step">{rows.step[r]}</td>
                <td class="r-wave">{waveOf.get(rows.step[r])}</td>
                <td class="r-message" title={message}>
                  {message ?? ''}
                </td>
              </>
            );
          }}
        />
      </div>
    </>
  );
}
