// The fleet page's search, filters and table. A keystroke filters the prebuilt lower-case
// index (data/fleet-rows.ts) and renders the rows in view only; the filters are kept in the
// URL's query (without new history entries), so a filtered view can be linked to. Filtering by
// a rollout asks for that rollout's answer (one request) and shows each cluster's state in it.
// At a phone's width the table scrolls sideways in its own box, the id column kept in view and
// as wide as the longest id (--id-chars), so no id is ever cut.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import { FLEET_STATES, type FleetState, type RolloutSummary } from '../../api/types.ts';
import { Banner } from '../../components/common/Banner.tsx';
import { ClusterStatePill } from '../../components/common/RolloutPill.tsx';
import { STATE_LABELS, StatusPill } from '../../components/common/StatusPill.tsx';
import { Time } from '../../components/common/Time.tsx';
import { VirtualTable } from '../../components/common/VirtualTable.tsx';
import { rolloutStatesOf } from '../../data/fleet-rollout.ts';
import { filterRows, type FleetRows } from '../../data/fleet-rows.ts';
import { loadRollout } from '../../data/rollouts.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { href, replaceSearch } from '../../router/router.ts';
import { RolloutFilter } from './RolloutFilter.tsx';

const ROW_HEIGHT = 36;

/** What a person on call reads first comes first: on a phone the columns after the state are scrolled to. */
const ID = { label: 'Cluster', className: 'c-id' };
const ENVIRONMENT = { label: 'Environment', className: 'c-env' };
const STATE = { label: 'State', className: 'c-state' };
const IN_ROLLOUT = { label: 'In the rollout', className: 'c-rollout' };
const LAST_SEEN = { label: 'Last seen', className: 'c-seen' };
const DNS = { label: 'DNS name', className: 'c-dns' };

export interface FleetTableProps {
  client: ApiClient;
  rows: FleetRows;
  /** The rollouts to filter by (none where the service keeps no progress). */
  rollouts: readonly RolloutSummary[];
  counts: Record<FleetState, number>;
  statesAvailable: boolean;
  initial: URLSearchParams;
}

export function FleetTable({ client, rows, rollouts, counts, statesAvailable, initial }: FleetTableProps) {
  const [query, setQuery] = useState(initial.get('q') ?? '');
  const [environment, setEnvironment] = useState(initial.get('environment') ?? '');
  const [state, setState] = useState(statesAvailable ? (initial.get('state') ?? '') : '');
  const [rollout, setRollout] = useState(initial.get('rollout') ?? '');
  const [rolloutState, setRolloutState] = useState(initial.get('rollout_state') ?? '');
  const detail = useAsync(async () => (rollout ? loadRollout(client, rollout) : undefined), [client, rollout]);
  const inRollout = useMemo(
    () =>
      detail.state === 'done' && detail.value?.kind === 'rollout'
        ? rolloutStatesOf(rows, detail.value.rollout)
        : undefined,
    [detail, rows],
  );
  const matches = useMemo(
    () =>
      filterRows(rows, {
        query,
        environment,
        state,
        rollout: inRollout && { states: inRollout.state, state: rolloutState },
      }),
    [rows, query, environment, state, inRollout, rolloutState],
  );
  const idChars = useMemo(() => rows.id.reduce((most, id) => Math.max(most, id.length), 8), [rows]);
  const shownOnce = useRef(false);

  useEffect(() => {
    const search = new URLSearchParams();
    if (query) search.set('q', query);
    if (environment) search.set('environment', environment);
    if (state) search.set('state', state);
    if (rollout) search.set('rollout', rollout);
    if (rollout && rolloutState) search.set('rollout_state', rolloutState);
    replaceSearch(search);
    // Marks for the benchmark (scripts/bench/ui.ts): when rows were first shown, and when a
    // search's rows were.
    if (!shownOnce.current) {
      shownOnce.current = true;
      performance.mark('fleet-rows-shown');
    } else {
      performance.mark('fleet-filter-shown');
    }
  }, [matches]);

  const onSearch = (event: Event) => {
    performance.mark('fleet-filter-start');
    setQuery((event.target as HTMLInputElement).value);
  };

  return (
    <>
      <form class="filters" role="search" aria-label="Clusters" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for="fleet-search">Search clusters</label>
          <input
            id="fleet-search"
            type="search"
            value={query}
            onInput={onSearch}
            placeholder="id or DNS name"
            autoComplete="off"
            spellcheck={false}
          />
        </div>
        <div class="field">
          <label for="fleet-environment">Environment</label>
          <select
            id="fleet-environment"
            value={environment}
            onChange={(event) => setEnvironment((event.target as HTMLSelectElement).value)}
          >
            <option value="">All</option>
            {rows.environments.map((name) => (
              <option value={name}>{name}</option>
            ))}
          </select>
        </div>
        {statesAvailable && (
          <div class="field">
            <label for="fleet-state">State</label>
            <select
              id="fleet-state"
              value={state}
              onChange={(event) => setState((event.target as HTMLSelectElement).value)}
            >
              <option value="">All</option>
              {FLEET_STATES.map((name) => (
                <option value={name}>
                  {STATE_LABELS[name]} ({counts[name].toLocaleString()})
                </option>
              ))}
            </select>
          </div>
        )}
        <RolloutFilter
          rollouts={rollouts}
          rollout={rollout}
          state={rolloutState}
          states={inRollout}
          onRollout={(id) => {
            setRollout(id);
            setRolloutState('');
          }}
          onState={setRolloutState}
        />
      </form>
      {rollout && detail.state === 'done' && detail.value?.kind !== 'rollout' && (
        <Banner tone="warning" title="Not filtered by rollout">
          <p>{detail.value?.message}</p>
        </Banner>
      )}
      {detail.state === 'error' && (
        <Banner tone="warning" title="Not filtered by rollout">
          <p>{detail.error.message}</p>
        </Banner>
      )}
      <p class="shown" role="status">
        {rollout && detail.state === 'loading'
          ? `Loading the clusters of ${rollout}…`
          : `Showing ${matches.length.toLocaleString()} of ${rows.count.toLocaleString()} clusters`}
      </p>
      <div class="fleet-table" style={{ '--id-chars': idChars }}>
        <VirtualTable
          label="Clusters"
          columns={[
            ID,
            ENVIRONMENT,
            ...(statesAvailable ? [STATE] : []),
            ...(inRollout ? [IN_ROLLOUT] : []),
            ...(statesAvailable ? [LAST_SEEN] : []),
            DNS,
          ]}
          rowCount={matches.length}
          rowHeight={ROW_HEIGHT}
          resetKey={matches}
          rowKey={(i) => rows.id[matches[i]]}
          row={(i) => {
            const r = matches[i];
            const id = rows.id[r];
            return (
              <>
                <td class="c-id">
                  <a href={href('clusters', id)}>{id}</a>
                </td>
                <td class="c-env">{rows.environment[r] ?? <span class="muted">unknown</span>}</td>
                {statesAvailable && (
                  <td class="c-state">
                    <StatusPill state={rows.state[r]} />
                  </td>
                )}
                {inRollout && (
                  <td class="c-rollout">
                    <ClusterStatePill state={inRollout.state[r]!} />
                  </td>
                )}
                {statesAvailable && (
                  <td class="c-seen">
                    <Time iso={rows.lastSeen[r]} />
                  </td>
                )}
                <td class="c-dns">{rows.dns[r]}</td>
              </>
            );
          }}
        />
      </div>
    </>
  );
}
