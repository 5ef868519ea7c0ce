// The worker thread of ./record-file-thread.ts: reads and writes the text of large record
// files, and parses its share of a full load's files (./shared-parses.ts), with the domain's own
// functions, one job at a time, and answers each by its number.
import { parentPort } from 'node:worker_threads';
import { type RecordFileJob, runRecordFileJob } from './record-file-thread.ts';

parentPort!.on('message', ({ id, job }: { id: number; job: RecordFileJob }) => {
  try {
    parentPort!.postMessage({ id, value: runRecordFileJob(job) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
