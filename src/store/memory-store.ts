// STORE_BACKEND=memory: the state comes from SEED_FILE at start and lives in memory. In
// crud mode writes change it in memory only (lost at exit); the revision of the seed,
// "seed-<hash>", becomes "seed-<hash>.<n>" after the n-th write.
import type { Logger } from 'pino';
import { ApiError } from '../http/errors.ts';
import type { SnapshotPublisher } from '../serving/publisher.ts';
import { applyMutation } from './apply-mutation.ts';
import {
  type LoadReport,
  type Mutation,
  type MutationResult,
  type StoreStatus,
  type WritableConfigStore,
} from './config-store.ts';
import { loadSeedFile } from './seed-file.ts';
import { SerialQueue } from './serial-queue.ts';

export class MemoryStore implements WritableConfigStore {
  readonly backend = 'memory' as const;
  readonly #seedFile: string;
  readonly #publisher: SnapshotPublisher;
  readonly #log: Logger;
  #lastLoad: LoadReport | undefined;
  readonly #writes = new SerialQueue();
  #seedRevision = '';
  #writeCount = 0;

  constructor(options: { seedFile: string; publisher: SnapshotPublisher; log: Logger }) {
    this.#seedFile = options.seedFile;
    this.#publisher = options.publisher;
    this.#log = options.log;
  }

  async start(): Promise<void> {
    const { snapshot, contentRevision: revision } = loadSeedFile(this.#seedFile);
    this.#seedRevision = revision;
    this.#publisher.publish(snapshot);
    this.#lastLoad = { at: new Date().toISOString(), ok: true, revision };
    this.#log.info({ revision, clusters: snapshot.clusters.size }, 'seed loaded');
  }

  async stop(): Promise<void> {
    await this.#writes.idle();
  }

  /** Applies one write; writes run one at a time, each on the snapshot the last one left. */
  mutate(mutation: Mutation): Promise<MutationResult> {
    return this.#writes.run(() => {
      const current = this.#publisher.current()?.snapshot;
      if (!current) throw new ApiError('unavailable', 'no configuration has been loaded yet; see /ready', { headers: { 'retry-after': '5' } });
      const revision = `${this.#seedRevision}.${this.#writeCount + 1}`;
      const applied = applyMutation(current, mutation, revision);
      const result = {
        record: applied.record,
        revisionBefore: current.revision,
        changedFields: applied.changedFields,
        unchanged: applied.unchanged,
      };
      if (applied.unchanged) return { ...result, revisionAfter: current.revision, snapshot: current };
      this.#writeCount += 1;
      this.#publisher.publish(applied.snapshot);
      this.#lastLoad = { at: new Date().toISOString(), ok: true, revision };
      return { ...result, revisionAfter: revision, snapshot: applied.snapshot };
    });
  }

  status(): StoreStatus {
    return { backend: this.backend, last_load: this.#lastLoad, details: { seed_file: this.#seedFile } };
  }
}
