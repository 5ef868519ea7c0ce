// The record-file thread holds a process while it has a job (the caller awaits the answer, and
// nothing else may be keeping the process) and lets go of it once idle: `validate` and the other
// commands end when their work ends, not when the idle thread's timer ends it 10 s later.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommandText } from '../../helpers/process-starter.ts';
import { removeDir, tempDir } from '../../helpers/temp-files.ts';

const THREAD = pathToFileURL(`${process.cwd()}/src/store/record-files/record-file-thread.ts`).href;

// A process whose only work is a job on the thread: it prints the answer, then how long it lived
// after it.
const SCRIPT = `
import { RecordFileThread } from ${JSON.stringify(THREAD)};
const parses = await new RecordFileThread().parseMany([{ path: 'clusters/a.yaml', text: 'cluster_name: a\\n' }]);
const answered = performance.now();
console.log(JSON.stringify({ collection: parses[0].collection }));
process.on('exit', () => console.log(JSON.stringify({ lingered: performance.now() - answered })));
`;

describe('the record-file thread and the life of its process', () => {
  it('keeps the process for the answer and lets it end right after', () => {
    // From a file: given with -e, the same script ended at once however long the thread held it.
    const dir = tempDir('thread-exit-');
    const script = join(dir, 'job.mjs');
    writeFileSync(script, SCRIPT);
    let lines: string[];
    try {
      lines = runCommandText(process.execPath, [script]).trim().split('\n');
    } finally {
      removeDir(dir);
    }
    expect(JSON.parse(lines[0])).toEqual({ collection: 'clusters' });
    // Before the fix the thread held the process until its idle timer (10 s) ended it.
    expect(JSON.parse(lines[1]).lingered).toBeLessThan(5_000);
  });
});
