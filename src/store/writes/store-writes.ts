// The store runner's writes as a whole: one at a time, in the order they came, each from its
// first try to its answer (loads run between its tries, ./write-attempts.ts), each counted by
// how it ended (../runner/store-events.ts: each write of a change set counted, with the set's
// result), and the ones under way known so that stopping can wait for them.
import type { ChangeSetRequest } from '../../domain/writes/change-set.ts';
import { asStoreFault, type StoreFaultReason, WriteRefused } from '../errors.ts';
import { SerialQueue } from '../runner/serial-queue.ts';
import type { StoreEvents, WriteOutcome } from '../runner/store-events.ts';
import { attemptWrite } from './write-attempts.ts';
import type { WriteOptions, WritePath, WriteResult } from './write-path.ts';
import { WriterTurns } from './writer-turns.ts';

export class StoreWrites {
  readonly #path: WritePath;
  readonly #events: StoreEvents;
  /** The writes' own order: a write keeps its place between its turns in the runner's queue. */
  readonly #order = new SerialQueue();
  /** Writes under way, in the queue or waiting between their turns. */
  readonly #underWay = new Set<Promise<unknown>>();
  #stopped = false;

  /** `path`: what a write works with, less what the writes keep themselves (their turns, whether they stop). */
  constructor(path: Omit<WritePath, 'turns' | 'stopped'>, events: StoreEvents) {
    // When this runner's writes leave room for another writer of the store (./writer-turns.ts).
    this.#path = { ...path, turns: new WriterTurns(), stopped: () => this.#stopped };
    this.#events = events;
  }

  /** A write waiting to try again gives up; writes under way finish their turn. */
  stop(): void {
    this.#stopped = true;
  }

  /** Applies, stores and publishes one change set (a REST write is a set of one); answers once it is stored. */
  write(request: ChangeSetRequest, options: WriteOptions = {}): Promise<WriteResult> {
    const writing = this.#order.run(() => this.#write(request, options));
    this.#underWay.add(writing);
    void writing.catch(() => undefined).finally(() => this.#underWay.delete(writing));
    return writing;
  }

  /** Resolves once every write under way has ended, whichever way. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#underWay]);
  }

  async #write(request: ChangeSetRequest, options: WriteOptions): Promise<WriteResult> {
    // A dry run stores nothing and is not counted as a write.
    const written = (result: WriteOutcome['result'], reason?: StoreFaultReason): void => {
      if (options.dryRun) return;
      for (const write of request.writes) {
        const action = write.kind === 'create' || write.kind === 'delete' ? write.kind : 'update';
        this.#events.written({ collection: write.collection, action, result, ...(reason ? { reason } : {}) });
      }
    };
    try {
      const result = await attemptWrite(this.#path, request, options);
      written(result.applied.unchanged ? 'unchanged' : 'ok');
      return result;
    } catch (error) {
      if (error instanceof WriteRefused) written('refused');
      else written('failed', asStoreFault(error).reason);
      throw error;
    }
  }
}
