// STORE_BACKEND=memory: the state comes from SEED_FILE at start and lives in memory.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { formatProblem } from '../domain/problems.ts';
import { parseSeed } from '../domain/seed.ts';
import { createSnapshot } from '../domain/snapshot.ts';
import type { SnapshotPublisher } from '../serving/publisher.ts';
import { type ConfigStore, type LoadReport, StoreStartError, type StoreStatus } from './config-store.ts';

export class MemoryStore implements ConfigStore {
  readonly backend = 'memory' as const;
  readonly #seedFile: string;
  readonly #publisher: SnapshotPublisher;
  readonly #log: Logger;
  #lastLoad: LoadReport | undefined;

  constructor(options: { seedFile: string; publisher: SnapshotPublisher; log: Logger }) {
    this.#seedFile = options.seedFile;
    this.#publisher = options.publisher;
    this.#log = options.log;
  }

  async start(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.#seedFile, 'utf8');
    } catch (error) {
      throw new StoreStartError(`SEED_FILE ${this.#seedFile} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new StoreStartError(`SEED_FILE ${this.#seedFile} is not valid JSON: ${(error as Error).message}`);
    }
    const seed = parseSeed(document);
    const revision = `seed-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
    const built = seed.ok ? createSnapshot(seed.records, revision) : seed;
    if (!built.ok) {
      const lines = built.problems.map(formatProblem).join('; ');
      throw new StoreStartError(`SEED_FILE ${this.#seedFile} is invalid: ${lines}`);
    }
    this.#publisher.publish(built.snapshot);
    this.#lastLoad = { at: new Date().toISOString(), ok: true, revision };
    this.#log.info({ revision, clusters: built.snapshot.clusters.size }, 'seed loaded');
  }

  async stop(): Promise<void> {}

  status(): StoreStatus {
    return { backend: this.backend, last_load: this.#lastLoad, details: { seed_file: this.#seedFile } };
  }
}
