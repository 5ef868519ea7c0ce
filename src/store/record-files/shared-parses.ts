// A full load (the start, a file added or removed, `validate`) parses every record file: at
// 50,000 files that is most of the start, some 8 s of YAML and schema work on one thread while
// the machine's other core waits. The parses are shared with the record-file thread: this thread
// takes files from the front of the list, the other thread batches from the back, until the two
// meet. What the thread parsed comes back as a structured copy, which costs this thread about a
// sixth of the parse it saved. Either side may take more than half: a thread that is slow to
// start, or busy with a write's edit, simply takes fewer batches. A short list is parsed here.
import type { ParsedRecordFile } from '../../domain/repo-layout/record-file-parse.ts';
import { SliceTimer } from '../runner/event-loop.ts';
import type { RecordFileThread } from './record-file-thread.ts';

export interface FileText {
  path: string;
  text: string;
}

/** Lists shorter than this are parsed on this thread: the thread's start and copies cost more. */
export const SHARED_PARSES_MIN = 512;
/** Files per batch sent to the thread: some 20 ms of its work, small enough to share the tail. */
const BATCH = 128;
/** Batches sent ahead, so that the thread has the next while this one's answer comes back. */
const AHEAD = 2;

type Parse = ParsedRecordFile | undefined;

/** parseRecordFile of every file (through `thread.parse`, which takes large ones off this thread), in order. */
export async function parseShared(files: readonly FileText[], thread: RecordFileThread): Promise<Parse[]> {
  const parses = new Array<Parse>(files.length);
  const slices = new SliceTimer();
  if (files.length < SHARED_PARSES_MIN) {
    for (const [i, file] of files.entries()) {
      await slices.turnIfDue();
      parses[i] = await thread.parse(file.path, file.text);
    }
    return parses;
  }
  // [front, back) is what neither side has taken yet.
  let front = 0;
  let back = files.length;
  const sent: Promise<void>[] = [];
  const sendNext = (): void => {
    if (back - front < 2 * BATCH) return; // the rest is left to this thread
    const end = back;
    back -= BATCH;
    const start = back;
    const batch = thread.parseMany(files.slice(start, end)).then((answers) => {
      for (const [n, parse] of answers.entries()) parses[start + n] = parse;
      sendNext();
    });
    sent.push(batch);
  };
  for (let n = 0; n < AHEAD; n++) sendNext();
  while (front < back) {
    const file = files[front];
    parses[front++] = await thread.parse(file.path, file.text);
    // The turns let the thread's answers in (each sends the next batch) and polls be answered.
    await slices.turnIfDue();
  }
  // Batches are only sent while this thread has files left, so every one is in `sent` by now.
  await Promise.all(sent);
  return parses;
}
