// The worker thread of ./record-file-thread.ts: reads and writes the text of large record
// files with the domain's own functions, one job at a time, and answers each by its number.
import { parentPort } from 'node:worker_threads';
import { nextRecordFileText } from '../../domain/repo-layout/record-file-edit.ts';
import { parseRecordFile } from '../../domain/repo-layout/record-file-parse.ts';
import type { RecordFileJob } from './record-file-thread.ts';

parentPort!.on('message', ({ id, job }: { id: number; job: RecordFileJob }) => {
  try {
    const value =
      job.kind === 'parse'
        ? parseRecordFile(job.path, job.text)
        : nextRecordFileText(job.collection, job.record, job.previous, job.header);
    parentPort!.postMessage({ id, value });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
