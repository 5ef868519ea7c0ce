// The fleet page's search, filters and table. A keystroke filters the prebuilt lower-case
// index (data/fleet-rows.ts) and renders the rows in view only; the filters are kept in the
// URL's query (without new history entries), so a filtered view can be linked to.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { FLEET_STATES, type FleetState } from '../../api/types.ts';
import { STATE_LABELS, StatusPill } from '../../components/common/StatusPill.tsx';
import { Time } from '../../components/common/Time.tsx';
import { VirtualTable } from '../../components/common/VirtualTable.tsx';
import { filterRows, type FleetRows } from '../../data/fleet-rows.ts';
import { href, replaceSearch } from '../../router/router.ts';

const ROW_HEIGHT = 36;

const COLUMNS = [
  { label: 'Cluster', className: 'c-id' },
  { label: 'DNS name', className: 'c-dns' },
  { label: 'Environment', className: 'c-env' },
  { label: 'State', className: 'c-state' },
  { label: 'Last seen', className: 'c-seen' },
];

export interface FleetTableProps {
  rows: FleetRows;
  counts: Record<FleetState, number>;
  statesAvailable: boolean;
  initial: URLSearchParams;
}

export function FleetTable({ rows, counts, statesAvailable, initial }: FleetTableProps) {
  const [query, setQuery] = useState(initial.get('q') ?? '');
  const [environment, setEnvironment] = useState(initial.get('environment') ?? '');
  const [state, setState] = useState(statesAvailable ? (initial.get('state') ?? '') : '');
  const matches = useMemo(() => filterRows(rows, { query, environment, state }), [rows, query, environment, state]);
  const shownOnce = useRef(false);

  useEffect(() => {
    const search = new URLSearchParams();
    if (query) search.set('q', query);
    if (environment) search.set('environment', environment);
    if (state) search.set('state', state);
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
      </form>
      <p class="shown" role="status">
        Showing {matches.length.toLocaleString()} of {rows.count.toLocaleString()} clusters
      </p>
      <VirtualTable
        label="Clusters"
        columns={
          statesAvailable
            ? COLUMNS
            : COLUMNS.filter((column) => column.className !== 'c-state' && column.className !== 'c-seen')
        }
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
              <td class="c-dns">{rows.dns[r]}</td>
              <td class="c-env">{rows.environment[r] ?? <span class="muted">unknown</span>}</td>
              {statesAvailable && (
                <td class="c-state">
                  <StatusPill state={rows.state[r]} />
                </td>
              )}
              {statesAvailable && (
                <td class="c-seen">
                  <Time iso={rows.lastSeen[r]} />
                </td>
              )}
            </>
          );
        }}
      />
    </>
  );
}
