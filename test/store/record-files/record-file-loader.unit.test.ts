// The loader keeps the last revision it loaded and makes the next from it: a file that did not
// change keeps its record object, and when the changed files keep their records' ids the new
// revision says which records it put in place (`replaced`), which lets its snapshot be built
// without a walk of the fleet. Whatever the sequence of revisions, each must equal what a loader
// with no memory makes of the same files.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import { problem } from '../../../src/domain/problem.ts';
import type { AnyRecord, Collection, RecordSets } from '../../../src/domain/records.ts';
import { COLLECTIONS } from '../../../src/domain/records.ts';
import type { LoadedRevision } from '../../../src/store/backend.ts';
import { byPath, gitBlobId, type RecordFileEntry } from '../../../src/store/record-files/record-file-entry.ts';
import { RecordFileLoader } from '../../../src/store/record-files/record-file-loader.ts';
import { recordFileThread } from '../../../src/store/record-files/record-file-thread.ts';
import { SHARED_PARSES_MIN } from '../../../src/store/record-files/shared-parses.ts';
import { parseRecordFile } from '../../../src/domain/repo-layout/record-file-parse.ts';
import { asRepoFiles, fixtureData } from '../../helpers/fixture-data.ts';

type Files = Map<string, RecordFileEntry>;

const textEntry = (path: string, text: string): RecordFileEntry => ({
  path,
  blobId: gitBlobId(Buffer.from(text)),
  text,
});

function baseFiles(): Files {
  const files: Files = new Map();
  for (const [path, content] of Object.entries(asRepoFiles(fixtureData)))
    files.set(path, textEntry(path, typeof content === 'string' ? content : dump(content)));
  return files;
}

type Edit = { kind: 'same' | 'comment' | 'broken' | 'otherId' | 'remove' | 'refused' | 'twin' | 'add'; at: number };
const editArb: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom(
    'same',
    'comment',
    'comment',
    'comment',
    'broken',
    'otherId',
    'remove',
    'refused',
    'twin',
    'add',
  ),
  at: fc.nat(1000),
});

/** `files` with one edit made; the entries of files it leaves alone are the same objects. */
function edited(files: Files, edit: Edit, version: number): Files {
  const next = new Map(files);
  const paths = [...files.keys()].filter((path) => path.endsWith('.yaml') || path.endsWith('.yml'));
  const path = paths[edit.at % paths.length];
  const text = files.get(path)?.text ?? 'id: x\n';
  switch (edit.kind) {
    case 'same': // the same content listed again as a new entry (a commit's tree read afresh)
      next.set(path, textEntry(path, text));
      break;
    case 'comment': // the record's value changes nowhere, its file does
      next.set(path, textEntry(path, `${text}# v${version}\n`));
      break;
    case 'broken':
      next.set(path, textEntry(path, `id: [v${version}\n`));
      break;
    case 'otherId':
      next.set(path, textEntry(path, `id: other-${version}\n${text.replace(/^id: .*\n/m, '')}`));
      break;
    case 'remove':
      next.delete(path);
      break;
    case 'refused': {
      const at = { field: '', file: path };
      next.set(path, { path, blobId: `refused:${version}`, refused: problem('file_too_large', at, 'too large') });
      break;
    }
    case 'twin': // a second file for the same record (a.yaml and a.yml)
      next.set(path.replace(/\.ya?ml$/, '.yml'), textEntry(path.replace(/\.ya?ml$/, '.yml'), text));
      break;
    case 'add':
      next.set(`namespaces/added-${edit.at}.yaml`, textEntry(`namespaces/added-${edit.at}.yaml`, `labels: {}\n`));
  }
  return next;
}

const listed = (files: Files) => [...files.values()].sort(byPath);

/** `before`'s records with the ones `replaced` names put in place of their ids. */
function putInPlace(before: RecordSets, replaced: NonNullable<LoadedRevision['replaced']>): RecordSets {
  const out = {} as Record<Collection, AnyRecord[]>;
  for (const collection of COLLECTIONS) {
    const byId = new Map((replaced.records[collection] ?? []).map((record) => [record.id, record]));
    out[collection] = (before[collection] as AnyRecord[]).map((record) => byId.get(record.id) ?? record);
  }
  return out as unknown as RecordSets;
}

describe('the record file loader', () => {
  it('makes each revision as a loader with no memory does, and says truly which records it put in place', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(editArb, { maxLength: 3 }), { minLength: 1, maxLength: 6 }), async (runs) => {
        const loader = new RecordFileLoader();
        let files = baseFiles();
        let before = await loader.load(listed(files), 'r0');
        for (const [i, edits] of runs.entries()) {
          files = edits.reduce((f, edit) => edited(f, edit, i + 1), files);
          const revision = `r${i + 1}`;
          const held = COLLECTIONS.map((c) => [...(before.records[c] as AnyRecord[])]);
          const loaded = await loader.load(listed(files), revision);
          // The revision before is left as it was: it may still be the one served.
          COLLECTIONS.forEach((c, n) =>
            expect((before.records[c] as AnyRecord[]).every((r, m) => r === held[n][m])).toBe(true),
          );
          const afresh = await new RecordFileLoader().load(listed(files), revision);
          expect(loaded.records).toEqual(afresh.records);
          expect(loaded.problems).toEqual(afresh.problems);
          expect([...loaded.sources]).toEqual([...afresh.sources]);
          if (loaded.replaced) {
            expect(loaded.replaced.base).toBe(before.revision);
            // Exactly those records are new objects; every other one is the object of the revision before.
            const expected = putInPlace(before.records, loaded.replaced);
            for (const collection of COLLECTIONS)
              expect((loaded.records[collection] as AnyRecord[]).every((r, n) => r === expected[collection][n])).toBe(
                true,
              );
          }
          before = loaded;
        }
      }),
      { numRuns: 150 },
    );
  });

  it('puts an edited record in place when every file keeps its path and the record its id', async () => {
    const loader = new RecordFileLoader();
    const files = baseFiles();
    const first = await loader.load(listed(files), 'r0');
    const path = [...files.keys()].find((p) => p.startsWith('clusters/'))!;
    const next = edited(files, { kind: 'comment', at: [...files.keys()].indexOf(path) }, 1);
    next.set(path, textEntry(path, `${files.get(path)!.text!.replace(/cluster_name: .*/, 'cluster_name: renamed')}`));
    const loaded = await loader.load(listed(next), 'r1');
    const renamed = loaded.records.clusters.find((c) => c.cluster_name === 'renamed')!;
    expect(loaded.replaced).toEqual({ base: 'r0', records: { clusters: [renamed] } });
    expect(loaded.records.namespaces).toBe(first.records.namespaces);
    expect(loaded.sources).toBe(first.sources);
  });

  it("keeps no file's text until the next load (at start that would be every file's)", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const loader = new RecordFileLoader();
    const handedOut = async (revision: string, edit?: Edit) => {
      const entries = listed(edit ? edited(baseFiles(), edit, 1) : baseFiles());
      await loader.load(entries, revision);
      return entries.filter((e) => e.text !== undefined).map((e) => new WeakRef(e));
    };
    const expectNoneKept = async (refs: WeakRef<RecordFileEntry>[]) => {
      expect(refs.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 0)); // weak references hold until the job ends
      gc();
      expect(refs.filter((ref) => ref.deref() !== undefined)).toEqual([]);
    };
    // A full look, then a look that puts one record in place: neither keeps an entry that has a text.
    await expectNoneKept(await handedOut('r0'));
    await expectNoneKept(await handedOut('r1', { kind: 'comment', at: 2 }));
  });

  it('looks at every file when one is added, removed, or no longer parses: no `replaced` then', async () => {
    for (const kind of ['add', 'remove', 'broken', 'otherId'] as const) {
      const loader = new RecordFileLoader();
      const files = baseFiles();
      await loader.load(listed(files), 'r0');
      const loaded = await loader.load(listed(edited(files, { kind, at: 3 }, 1)), 'r1');
      expect(loaded.replaced, kind).toBeUndefined();
    }
  });

  it('shares the parses of a full look with the record-file thread, and keeps their order', async () => {
    const files = baseFiles();
    const template = files.get('clusters/c1.yaml')!.text!;
    for (let i = 0; i < 2 * SHARED_PARSES_MIN; i++) {
      const id = `many-${String(i).padStart(4, '0')}`;
      const text = template.replaceAll('c1', id);
      files.set(`clusters/${id}.yaml`, textEntry(`clusters/${id}.yaml`, text));
    }
    const entries = listed(files);
    const many = vi.spyOn(recordFileThread, 'parseMany');
    const loaded = await new RecordFileLoader().load(entries, 'r0');
    expect(many).toHaveBeenCalled();
    many.mockRestore();
    const alone = entries
      .map((entry) => parseRecordFile(entry.path, entry.text!))
      .filter((parsed) => parsed?.collection === 'clusters' && parsed.record)
      .map((parsed) => parsed!.record);
    expect(loaded.records.clusters).toEqual(alone);
    await recordFileThread.close();
  });
});
