// A full load shares its parses with the record-file thread (shared-parses.ts): whichever side
// parsed a file, the list of parses is the one this thread would have made alone, in the files'
// order — broken files, files outside the layout and a large file included — and a thread lost
// midway costs nothing but time.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Cluster } from '../../../src/domain/records.ts';
import { parseRecordFile } from '../../../src/domain/repo-layout/record-file-parse.ts';
import { recordFileText } from '../../../src/domain/repo-layout/record-file-text.ts';
import { validateRecord } from '../../../src/domain/rules/record-schema.ts';
import { LARGE_FILE_BYTES, RecordFileThread } from '../../../src/store/record-files/record-file-thread.ts';
import { type FileText, parseShared, SHARED_PARSES_MIN } from '../../../src/store/record-files/shared-parses.ts';

function cluster(id: string, patchKeys = 2): Cluster {
  const patches = Object.fromEntries(Array.from({ length: patchKeys }, (_, i) => [`key-${i}`, `value-${i}`]));
  const valid = validateRecord('clusters', {
    id,
    cluster_name: id,
    cluster_dns: `${id}.example.com`,
    environment: 'dev',
    platform_components: [{ id: 'podinfo', enabled: true }],
    patches: { podinfo: patches },
  });
  if (!valid.ok) throw new Error(JSON.stringify(valid.problems));
  return valid.record;
}

/** `count` files in path order, every tenth of them broken in one of four ways, one of them large. */
function files(count: number): FileText[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `c${String(i).padStart(5, '0')}`;
    const path = `clusters/${id}.yaml`;
    switch (i % 40) {
      case 7:
        return { path, text: 'cluster_name: [unclosed\n' };
      case 17:
        return { path, text: recordFileText('clusters', cluster('another-id')) };
      case 27:
        return { path: `docs/${id}.yaml`, text: 'not: a record\n' };
      case 37:
        return { path, text: '' };
      default:
        return { path, text: recordFileText('clusters', cluster(id, i === 500 ? 3000 : 2)) };
    }
  });
}

const thread = new RecordFileThread();
afterAll(() => thread.close());

describe('parses shared with the record-file thread', () => {
  it('are the parses this thread makes alone, in order, the thread taking a share of a long list', async () => {
    const list = files(3 * SHARED_PARSES_MIN);
    expect(list[500].text.length).toBeGreaterThan(LARGE_FILE_BYTES);
    const many = vi.spyOn(thread, 'parseMany');
    const parses = await parseShared(list, thread);
    expect(parses).toEqual(list.map((file) => parseRecordFile(file.path, file.text)));
    const onThread = many.mock.calls.reduce((sum, [batch]) => sum + batch.length, 0);
    // Both sides took a share: the thread some batches, this thread the rest.
    expect(onThread).toBeGreaterThan(0);
    expect(onThread).toBeLessThan(list.length);
    many.mockRestore();
  });

  it('leave a short list to this thread', async () => {
    const list = files(SHARED_PARSES_MIN - 1);
    const many = vi.spyOn(thread, 'parseMany');
    expect(await parseShared(list, thread)).toEqual(list.map((file) => parseRecordFile(file.path, file.text)));
    expect(many).not.toHaveBeenCalled();
    many.mockRestore();
  });

  it('are whole when the thread ends midway: what it had is parsed here', async () => {
    const list = files(4 * SHARED_PARSES_MIN);
    const parsing = parseShared(list, thread);
    // The first batches are sent before parseShared returns its promise; the thread ends under them.
    await thread.close();
    expect(await parsing).toEqual(list.map((file) => parseRecordFile(file.path, file.text)));
  });
});
