// The store's state as the alert rules ask about it: since when the served revision is older
// than the store's newest (refused or unreadable), which revision was refused and for what
// (one series at a time), when a remote was last fetched, and why writes failed. /metrics is
// public, so the refusal is named as public /ready names it (docs/decisions/0022-ready-views-and-url-secrets.md): the
// problem's code and the kind of record, never its file, whose name is a cluster's or a
// definition's id. Read from the
// store runner when /metrics is scraped; write failures are counted from its events.
import { Counter, type Gauge, Gauge as GaugeMetric, type Registry } from 'prom-client';
import { STORE_FAULT_REASONS } from '../store/errors.ts';
import type { StoreRunner } from '../store/runner/store-runner.ts';

export type StoreSeriesSource = Pick<StoreRunner, 'published' | 'status' | 'describe' | 'onWrite'>;

export function registerStoreSeries(prefix: string, registers: Registry[], store: StoreSeriesSource): void {
  new GaugeMetric({
    name: `${prefix}stale_since_timestamp_seconds`,
    help:
      'While the last load of the store was refused or failed and an earlier revision stays served ' +
      '(/ready says stale): when the first of those loads ended, in seconds since the epoch; ' +
      '0 while the newest revision is served.',
    registers,
    collect(this: Gauge) {
      const lastLoad = store.status().lastLoad;
      const stale = store.published() !== undefined && lastLoad?.ok === false && lastLoad.staleSince !== undefined;
      this.set(stale ? Date.parse(lastLoad.staleSince!) / 1000 : 0);
    },
  });
  new GaugeMetric({
    name: `${prefix}refused_revision_info`,
    help:
      'While the newest revision of the store is refused and an earlier one stays served: 1, labelled with ' +
      'the refused revision, the code of its first problem and the collection of the record it is in ' +
      '("" for none). At most one series; none otherwise.',
    labelNames: ['revision', 'problem', 'collection'] as const,
    registers,
    collect(this: Gauge<'revision' | 'problem' | 'collection'>) {
      this.reset();
      const lastLoad = store.status().lastLoad;
      // A refusal has a revision and problems; a load that failed has a reason instead.
      const refused = lastLoad?.ok === false && lastLoad.reason === undefined && lastLoad.revision !== undefined;
      if (!store.published() || !refused) return;
      const first = lastLoad.problems?.[0];
      this.set(
        { revision: lastLoad.revision!, problem: first?.code ?? '', collection: first?.at.record?.collection ?? '' },
        1,
      );
    },
  });
  // Only a store fetched from a remote has these two; the rules compare them.
  if (store.describe().sync) {
    new GaugeMetric({
      name: `${prefix}last_successful_sync_timestamp_seconds`,
      help:
        'When a fetch from the remote repository last succeeded (clone included), in seconds since the epoch; ' +
        '0 before the first.',
      registers,
      collect(this: Gauge) {
        this.set((store.describe().sync?.lastSuccessAt?.getTime() ?? 0) / 1000);
      },
    });
    new GaugeMetric({
      name: `${prefix}sync_interval_seconds`,
      help: 'CONFIG_SYNC_INTERVAL: how often the remote repository is fetched without a push webhook.',
      registers,
      collect(this: Gauge) {
        this.set((store.describe().sync?.intervalMs ?? 0) / 1000);
      },
    });
  }
  const failures = new Counter({
    name: `${prefix}write_failures_total`,
    help:
      'REST writes the store could not take (gitops_config_writes_total{result="failed"}), by reason: ' +
      'remote_refused (a push the remote rejected), kept_moving (the branch kept moving under it until ' +
      'WRITE_TIMEOUT), auth_failed, remote_unreachable, locked, disk_full, revision_refused, repository_state, io, ...',
    labelNames: ['reason'] as const,
    registers,
  });
  // Every reason present from the start, so that increase() and alerts see the first failure.
  for (const reason of STORE_FAULT_REASONS) failures.inc({ reason }, 0);
  store.onWrite(({ result, reason }) => {
    if (result === 'failed') failures.inc({ reason: reason ?? 'io' });
  });
}
