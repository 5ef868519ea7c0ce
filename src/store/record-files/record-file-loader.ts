// Files -> a loaded revision: the one loader of record files, for the server (working tree or Git
// commit), `validate`, `inputs` and `diff`. Parses are remembered by path and content, so a
// new revision costs only the files it changed, and two revisions compared share the rest.
import type { Problem } from '../../domain/problem.ts';
import type { ParsedRecordFile } from '../../domain/repo-layout/record-file-parse.ts';
import { assembleRecordsInSteps } from '../../domain/repo-layout/record-files.ts';
import { runInSlices, SliceTimer } from '../runner/event-loop.ts';
import type { LoadedRevision } from '../backend.ts';
import { type RecordFileEntry, RecordRefused } from './record-file-entry.ts';
import { recordFileThread } from './record-file-thread.ts';

/** Entries looked at between two looks at the clock. */
const LOOKED_BETWEEN_CHECKS = 256;

export class RecordFileLoader {
  /** "path\0blobId" -> parse, of the files of the last revision loaded. */
  #parsed = new Map<string, ParsedRecordFile>();

  /** `entries` in path order. */
  async load(entries: readonly RecordFileEntry[], revision: string): Promise<LoadedRevision> {
    const kept = new Map<string, ParsedRecordFile>();
    const files: { path: string; parsed: ParsedRecordFile }[] = [];
    const refused: Problem[] = [];
    // A fleet of 50,000 files is looked through in slices (some 100 ms in one piece).
    const slices = new SliceTimer();
    for (const [i, entry] of entries.entries()) {
      if (i % LOOKED_BETWEEN_CHECKS === 0) await slices.turnIfDue();
      if (entry.refused) {
        refused.push(entry.refused);
        continue;
      }
      const key = `${entry.path}\u0000${entry.blobId}`;
      let parsed = this.#parsed.get(key) ?? kept.get(key);
      if (!parsed) {
        let text: string;
        try {
          text = entry.text ?? (await entry.read!());
        } catch (error) {
          if (!(error instanceof RecordRefused)) throw error;
          refused.push(error.problem);
          continue;
        }
        parsed = await recordFileThread.parse(entry.path, text);
        if (!parsed) continue; // outside the layout
      }
      kept.set(key, parsed);
      files.push({ path: entry.path, parsed });
    }
    // Only the files of the latest revision are worth remembering: the next one shares most.
    this.#parsed = kept;
    const { records, problems, sources } = await runInSlices(assembleRecordsInSteps(files));
    return { revision, records, problems: [...refused, ...problems], sources };
  }
}
