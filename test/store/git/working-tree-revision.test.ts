// The revision id of a working tree (src/store/git/repository.ts): HEAD's commit when the files
// are HEAD's; "<commit>+dirty.<hash>" otherwise. With the same paths as HEAD, the hash is of the
// edited files alone (no hash of every file per reload); it must still tell every content apart.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workingTreeRevision } from '../../../src/store/git/repository.ts';
import { readWorkingTree } from '../../../src/store/record-files/working-tree.ts';
import { asRepoFiles } from '../../helpers/fixture-data.ts';
import { git, makeConfigRepo } from '../../helpers/git-fixture.ts';

describe('the revision id of a working tree', () => {
  it('names HEAD, then each edit apart, the same content alike, and HEAD again once the edits are undone', async () => {
    const dir = makeConfigRepo(asRepoFiles());
    const head = git(dir, 'rev-parse', 'HEAD');
    const revision = async () => workingTreeRevision(dir, await readWorkingTree(dir), {});
    expect(await revision()).toBe(head);

    const file = join(dir, 'namespaces', 'team-a.yaml');
    writeFileSync(file, 'labels: {a: "1"}\n');
    const first = await revision();
    expect(first).toMatch(new RegExp(`^${head}\\+dirty\\.[0-9a-f]{12}$`));
    writeFileSync(file, 'labels: {a: "2"}\n');
    const second = await revision();
    expect(second).not.toBe(first);
    writeFileSync(file, 'labels: {a: "1"}\n');
    expect(await revision()).toBe(first);

    // Files added or removed change the paths: the id is then a hash of every file, still apart.
    writeFileSync(join(dir, 'namespaces', 'added.yaml'), 'labels: {}\n');
    const added = await revision();
    expect(added).toMatch(/\+dirty\./);
    expect(new Set([first, second, added]).size).toBe(3);
    rmSync(join(dir, 'namespaces', 'added.yaml'));

    git(dir, 'checkout', '--', '.');
    expect(await revision()).toBe(head);
  });
});
