// STORE_BACKEND=memory: the state comes from SEED_FILE at start and lives in memory. Writes
// change it in memory only (lost at exit); the seed's revision "seed-<hash>" becomes
// "seed-<hash>.<n>" after the n-th write (a change set, whatever its size, is one write).
import type { Backend, BackendDescription, CommitResult, KnownRevisions, LoadResult } from '../../backend.ts';
import { readSeedFile, type SeedFile } from '../seed-file.ts';

export class MemoryBackend implements Backend {
  readonly #seedFile: string;
  #seed: SeedFile | undefined;
  #writes = 0;

  constructor(options: { seedFile: string }) {
    this.#seedFile = options.seedFile;
  }

  async open(): Promise<void> {
    this.#seed = readSeedFile(this.#seedFile);
  }

  /** The seed, once; after that the served state is the store itself and nothing else changes it. */
  async load(known: KnownRevisions): Promise<LoadResult> {
    const seed = this.#seed!;
    if (known.served !== undefined) return { unchanged: known.served };
    return { loaded: { revision: seed.contentRevision, records: seed.records, problems: [], sources: new Map() } };
  }

  watch(): void {}

  async commit(): Promise<CommitResult> {
    this.#writes += 1;
    return { revision: `${this.#seed!.contentRevision}.${this.#writes}` };
  }

  describe(): BackendDescription {
    return { details: {}, internal: { seed_file: this.#seedFile }, followsRemote: false, fixed: true };
  }

  async close(): Promise<void> {}
}
