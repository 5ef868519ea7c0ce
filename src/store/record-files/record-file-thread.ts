// Reading or writing a record file of a megabyte is a hundred milliseconds and more of YAML
// work (parsing the old text, splicing, reading the result back), which would hold every poll
// for as long. A file over LARGE_FILE_BYTES is read and written on a worker thread, with the
// same domain functions; a smaller one on the caller's thread, where it costs less than the
// trip. The thread starts at its first job and ends when idle for a while (its heap is
// memory of its own). A thread that cannot start or dies is not a failed read or write: the
// job is done on the caller's thread instead.
import { Worker } from 'node:worker_threads';
import type { AnyRecord, Collection } from '../../domain/records.ts';
import { nextRecordFileText } from '../../domain/repo-layout/record-file-edit.ts';
import { type ParsedRecordFile, parseRecordFile } from '../../domain/repo-layout/record-file-parse.ts';

/** Files of at least this many characters (old text or new record) go to the thread. */
export const LARGE_FILE_BYTES = 64 * 1024;
/** The thread ends after this long without a job. */
const IDLE_MS = 10_000;

export type RecordFileJob =
  | { kind: 'parse'; path: string; text: string }
  | { kind: 'parses'; files: readonly { path: string; text: string }[] }
  | { kind: 'edit'; collection: Collection; record: AnyRecord; previous: string | undefined; header: string };

type Answer = { id: number; value: unknown } | { id: number; error: string };

export class RecordFileThread {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, { job: RecordFileJob; resolve: (value: unknown) => void }>();
  #next = 0;
  #idle: NodeJS.Timeout | undefined;

  /** parseRecordFile, off the caller's thread for a large text. */
  async parse(path: string, text: string): Promise<ParsedRecordFile | undefined> {
    if (text.length < LARGE_FILE_BYTES) return parseRecordFile(path, text);
    return (await this.#run({ kind: 'parse', path, text })) as ParsedRecordFile | undefined;
  }

  /**
   * parseRecordFile of each file, on the thread whatever their size: the share of a load's parses
   * that the thread takes (./shared-parses.ts). In the files' order.
   */
  async parseMany(files: readonly { path: string; text: string }[]): Promise<(ParsedRecordFile | undefined)[]> {
    return (await this.#run({ kind: 'parses', files })) as (ParsedRecordFile | undefined)[];
  }

  /** nextRecordFileText, off the caller's thread for a large file. */
  async edit(collection: Collection, record: AnyRecord, previous: string | undefined, header = ''): Promise<string> {
    if ((previous?.length ?? 0) < LARGE_FILE_BYTES && JSON.stringify(record).length < LARGE_FILE_BYTES) {
      return nextRecordFileText(collection, record, previous, header);
    }
    return (await this.#run({ kind: 'edit', collection, record, previous, header })) as string;
  }

  #run(job: RecordFileJob): Promise<unknown> {
    clearTimeout(this.#idle);
    const worker = this.#thread();
    if (!worker) return Promise.resolve(inline(job));
    const id = this.#next++;
    worker.ref();
    return new Promise((resolve) => {
      this.#pending.set(id, { job, resolve });
      worker.postMessage({ id, job });
    });
  }

  #thread(): Worker | undefined {
    if (this.#worker) return this.#worker;
    const entry = new URL(
      `./record-file-thread-entry${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
      import.meta.url,
    );
    let worker: Worker;
    try {
      worker = new Worker(entry);
    } catch {
      return undefined;
    }
    worker.on('message', (answer: Answer) => this.#answer(answer));
    // A thread that fails: its jobs are done here, and the next job starts another.
    const lost = () => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      for (const [id, { job, resolve }] of this.#pending) {
        this.#pending.delete(id);
        resolve(inline(job));
      }
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    // Held while it has a job (the caller's await must keep a process alive), let go when idle
    // (an idle thread must not). After the listeners: adding a 'message' listener holds it again.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #answer(answer: Answer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    // The domain's own error (a bug) is thrown here as it would be on the caller's thread.
    if ('error' in answer) pending.resolve(inline(pending.job));
    else pending.resolve(answer.value);
    if (this.#pending.size === 0) {
      this.#worker?.unref();
      this.#idle = setTimeout(() => void this.close(), IDLE_MS);
      this.#idle.unref();
    }
  }

  /** Ends the thread (a job still under way is done on the caller's thread). */
  async close(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    if (!worker) return;
    await worker.terminate();
  }
}

/** The job's answer, worked out on this thread: the thread's own code as well. */
export function runRecordFileJob(job: RecordFileJob): unknown {
  switch (job.kind) {
    case 'parse':
      return parseRecordFile(job.path, job.text);
    case 'parses':
      return job.files.map((file) => parseRecordFile(file.path, file.text));
    case 'edit':
      return nextRecordFileText(job.collection, job.record, job.previous, job.header);
  }
}

const inline = runRecordFileJob;

/** The one thread of the process, shared by the loaders and the backends that write files. */
export const recordFileThread = new RecordFileThread();
