// Large record files are read and written on a worker thread (record-file-thread.ts), with the
// domain's own functions: the same parse and the same text as on the caller's thread, and a
// thread that has ended (idle, or killed) is started again or done without.
import { afterAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src/domain/records.ts';
import { nextRecordFileText } from '../../../src/domain/repo-layout/record-file-edit.ts';
import { parseRecordFile } from '../../../src/domain/repo-layout/record-file-parse.ts';
import { recordFileText } from '../../../src/domain/repo-layout/record-file-text.ts';
import { validateRecord } from '../../../src/domain/rules/record-schema.ts';
import { LARGE_FILE_BYTES, RecordFileThread } from '../../../src/store/record-files/record-file-thread.ts';

function cluster(keys: number): Cluster {
  const patches = Object.fromEntries(Array.from({ length: keys }, (_, i) => [`key-${i}`, 'v'.repeat(200) + i]));
  const valid = validateRecord('clusters', {
    id: 'big',
    cluster_name: 'big',
    cluster_dns: 'big.example.com',
    environment: 'dev',
    platform_components: [{ id: 'podinfo', enabled: true }],
    patches: { podinfo: patches },
  });
  if (!valid.ok) throw new Error(JSON.stringify(valid.problems));
  return valid.record;
}

const thread = new RecordFileThread();
afterAll(() => thread.close());

describe('the record file thread', () => {
  it('reads and writes a large file as the caller would, and a small one too', async () => {
    const large = cluster(2000);
    const small = cluster(3);
    const before = recordFileText('clusters', cluster(1000));
    expect(before.length).toBeGreaterThan(LARGE_FILE_BYTES);
    expect(await thread.edit('clusters', large, before)).toBe(nextRecordFileText('clusters', large, before));
    expect(await thread.edit('clusters', small, undefined, '# hint\n')).toBe(
      nextRecordFileText('clusters', small, undefined, '# hint\n'),
    );
    const text = recordFileText('clusters', large);
    expect(await thread.parse('clusters/big.yaml', text)).toEqual(parseRecordFile('clusters/big.yaml', text));
    // A broken file is a problem of the revision, from the thread as from here.
    const broken = `${text}\n  : [`;
    expect(await thread.parse('clusters/big.yaml', broken)).toEqual(parseRecordFile('clusters/big.yaml', broken));
  });

  it('starts again after it ended', async () => {
    const text = recordFileText('clusters', cluster(1500));
    const first = await thread.parse('clusters/big.yaml', text);
    await thread.close();
    expect(await thread.parse('clusters/big.yaml', text)).toEqual(first);
  });
});
