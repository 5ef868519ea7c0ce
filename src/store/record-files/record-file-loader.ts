// Files -> a loaded revision: the one loader of record files, for the server (working tree or Git
// commit), `validate`, `inputs` and `diff`. The parses of the last revision loaded are kept beside
// its files, so a new revision costs only the files it changed, and two revisions compared share
// the rest. When the files are the same paths and the changed ones keep their records' ids — the
// usual edit — the revision is made from the last one by putting the new records in their places,
// without looking at every record again, and says so (`replaced`): building its snapshot then
// costs what changed too (domain/snapshot-update.ts).
import type { Problem } from '../../domain/problem.ts';
import type { ParsedRecordFile } from '../../domain/repo-layout/record-file-parse.ts';
import { type AssembledRecords, assembleRecordsInSteps } from '../../domain/repo-layout/record-files.ts';
import type { AnyRecord, Collection, RecordSets } from '../../domain/records.ts';
import { runInSlices, SliceTimer } from '../runner/event-loop.ts';
import type { LoadedRevision } from '../backend.ts';
import { type RecordFileEntry, RecordRefused } from './record-file-entry.ts';
import { recordFileThread } from './record-file-thread.ts';
import { type FileText, parseShared } from './shared-parses.ts';

/** Entries looked at between two looks at the clock. */
const LOOKED_BETWEEN_CHECKS = 1024;
/** Texts read and held before they are parsed: some 10 MB of a fleet's cluster files. */
const TEXTS_HELD = 4096;

/** The last revision loaded, kept for the next. */
interface LastLoad {
  revision: string;
  /** In path order, without their texts (at start every file comes with its text). */
  entries: readonly RecordFileEntry[];
  /** entries[i]'s parse (undefined outside the layout), or why it could not be read. */
  parsed: readonly FileParse[];
  /** Where entries[i]'s record sits in its collection's list; -1 when it is not there (problems, a duplicate). */
  placed: Int32Array;
  assembled: AssembledRecords;
  /** The problems of the files that could not be read. */
  refused: readonly Problem[];
}

/** A file that cannot be read (too large, not UTF-8, a link) and why. */
interface Refusal {
  refused: Problem;
}

type FileParse = ParsedRecordFile | undefined | Refusal;

/** Files parsed while trying to put them in place, by path and blob id: kept for the full load that follows. */
type FreshParses = Map<string, FileParse>;

export class RecordFileLoader {
  #last: LastLoad | undefined;

  /** `entries` in path order. */
  async load(entries: readonly RecordFileEntry[], revision: string): Promise<LoadedRevision> {
    const fresh: FreshParses = new Map();
    const last = this.#last;
    const inPlace = last && (await this.#putInPlace(last, entries, revision, fresh));
    return inPlace ?? (await this.#loadAll(entries, revision, fresh));
  }

  /**
   * The revision made from the last one, when its files are the same paths and every changed one
   * parses cleanly to a record of the same collection and id as before, whose record was in place
   * and clean; undefined otherwise (then every file is looked at).
   */
  async #putInPlace(
    last: LastLoad,
    entries: readonly RecordFileEntry[],
    revision: string,
    fresh: FreshParses,
  ): Promise<LoadedRevision | undefined> {
    const compared = await changedEntries(last.entries, entries);
    if (!compared) return undefined;
    const { changed, withText } = compared;
    const parses: ParsedRecordFile[] = [];
    for (const i of changed) {
      const before = last.parsed[i];
      if (last.placed[i] < 0 || !before || 'refused' in before || !before.record || before.problems.length > 0)
        return undefined;
      const parsed = await parseEntry(entries[i], fresh);
      if (!parsed || 'refused' in parsed || !parsed.record || parsed.problems.length > 0) return undefined;
      if (parsed.collection !== before.collection || parsed.record.id !== before.record.id) return undefined;
      parses.push(parsed);
    }
    const records: RecordSets = { ...last.assembled.records };
    const replaced: Partial<Record<Collection, AnyRecord[]>> = {};
    const parsed = changed.length === 0 ? last.parsed : [...last.parsed];
    for (const [n, i] of changed.entries()) {
      const { collection, record } = parses[n];
      if (records[collection] === last.assembled.records[collection])
        records[collection] = [...last.assembled.records[collection]] as never;
      (records[collection] as AnyRecord[])[last.placed[i]] = record!;
      (replaced[collection] ??= []).push(record!);
      (parsed as FileParse[])[i] = parses[n];
    }
    const assembled = { ...last.assembled, records };
    const kept = withText.length === 0 ? entries : [...entries];
    for (const i of withText) (kept as RecordFileEntry[])[i] = withoutText(entries[i]);
    this.#last = { ...last, revision, entries: kept, parsed, assembled };
    return {
      revision,
      records,
      problems: [...last.refused, ...assembled.problems],
      sources: assembled.sources,
      replaced: { base: last.revision, records: replaced },
    };
  }

  /** Every file looked at; a file whose path and content were in the last revision keeps its parse. */
  async #loadAll(entries: readonly RecordFileEntry[], revision: string, fresh: FreshParses): Promise<LoadedRevision> {
    const known = this.#last;
    const parsed = new Array<FileParse>(entries.length);
    // The files to parse, a bounded number of texts at a time (files of a Git commit are read here).
    let pending: { at: number; key: string; file: FileText }[] = [];
    const parsePending = async () => {
      const parses = await parseShared(
        pending.map((p) => p.file),
        recordFileThread,
      );
      for (const [n, { at, key }] of pending.entries()) {
        parsed[at] = parses[n];
        fresh.set(key, parses[n]);
      }
      pending = [];
    };
    // A fleet of 50,000 files is looked through in slices (some 100 ms in one piece).
    const slices = new SliceTimer();
    let k = 0;
    for (const [i, entry] of entries.entries()) {
      if (i % LOOKED_BETWEEN_CHECKS === 0) await slices.turnIfDue();
      // Both lists are in path order: the last revision's file of this path, if any, is at k.
      while (known && k < known.entries.length && known.entries[k].path < entry.path) k++;
      const before = known?.entries[k];
      const same = before?.path === entry.path && before.blobId === entry.blobId && !entry.refused && !before.refused;
      if (known && same) {
        parsed[i] = known.parsed[k];
        continue;
      }
      const text = await textOf(entry, fresh);
      if (typeof text !== 'string') parsed[i] = text.parse;
      else pending.push({ at: i, key: fileKey(entry), file: { path: entry.path, text } });
      if (pending.length === TEXTS_HELD) await parsePending();
    }
    await parsePending();
    const files: { path: string; parsed: ParsedRecordFile }[] = [];
    const fileAt: number[] = [];
    const refused: Problem[] = [];
    for (const [i, parse] of parsed.entries()) {
      if (parse && 'refused' in parse) {
        refused.push(parse.refused);
        continue;
      }
      if (!parse) continue; // outside the layout
      files.push({ path: entries[i].path, parsed: parse });
      fileAt.push(i);
    }
    const placedFiles: number[] = [];
    const assembled = await runInSlices(assembleRecordsInSteps(files, placedFiles));
    const placed = new Int32Array(entries.length).fill(-1);
    for (const [n, i] of fileAt.entries()) placed[i] = placedFiles[n];
    this.#last = { revision, entries: entries.map(withoutText), parsed, placed, assembled, refused };
    return { revision, ...assembled, problems: [...refused, ...assembled.problems] };
  }
}

/**
 * The indexes of the entries that differ from the last revision's, and of those that come with
 * their text, when both are the same paths; undefined when a file was added, removed or refused
 * (then every file is looked at).
 */
async function changedEntries(
  before: readonly RecordFileEntry[],
  now: readonly RecordFileEntry[],
): Promise<{ changed: number[]; withText: number[] } | undefined> {
  if (before.length !== now.length) return undefined;
  const changed: number[] = [];
  const withText: number[] = [];
  const slices = new SliceTimer();
  for (let i = 0; i < now.length; i++) {
    if (i % LOOKED_BETWEEN_CHECKS === 0) await slices.turnIfDue();
    const a = before[i];
    const b = now[i];
    // The working tree hands out the same entry for a file it did not read again.
    if (a === b) continue;
    if (a.path !== b.path || a.refused || b.refused) return undefined;
    if (a.blobId !== b.blobId) changed.push(i);
    if (b.text !== undefined) withText.push(i);
  }
  return { changed, withText };
}

/** An entry as kept until the next load: without its text, which only its parse needed. */
function withoutText(entry: RecordFileEntry): RecordFileEntry {
  if (entry.text === undefined) return entry;
  const { path, blobId, read, refused } = entry;
  return { path, blobId, ...(read ? { read } : {}), ...(refused ? { refused } : {}) };
}

/** A file's parse (undefined outside the layout), or why it cannot be read. */
async function parseEntry(entry: RecordFileEntry, fresh: FreshParses): Promise<FileParse> {
  const text = await textOf(entry, fresh);
  if (typeof text !== 'string') return text.parse;
  const parsed = await recordFileThread.parse(entry.path, text);
  fresh.set(fileKey(entry), parsed);
  return parsed;
}

/** The file's text to parse; or its parse when it needs none: refused, or parsed already in this load. */
async function textOf(entry: RecordFileEntry, fresh: FreshParses): Promise<string | { parse: FileParse }> {
  if (entry.refused) return { parse: { refused: entry.refused } };
  const key = fileKey(entry);
  if (fresh.has(key)) return { parse: fresh.get(key) };
  try {
    return entry.text ?? (await entry.read!());
  } catch (error) {
    if (!(error instanceof RecordRefused)) throw error;
    fresh.set(key, { refused: error.problem });
    return { parse: { refused: error.problem } };
  }
}

function fileKey(entry: RecordFileEntry): string {
  return `${entry.path}\u0000${entry.blobId}`;
}
