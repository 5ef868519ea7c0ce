// Commit objects as the service reads and writes them (src/store/git/format/commit-object.ts).
// The texts and ids below are git's own: `git cat-file commit` of commits made by git 2.39
// with fixed names and dates, so an encoded commit must hash to the very id git gave it.
import { describe, expect, it } from 'vitest';
import { decodeCommit, encodeCommit, identName } from '../../../../src/store/git/format/commit-object.ts';
import { objectId } from '../../../../src/store/git/format/object-id.ts';

const TREE = '848b3d57c61a4c30bc2a9784a13abc927dbf1be9';
/** `git cat-file commit` of a root commit; git gave it the id below. */
const ROOT_COMMIT = [
  `tree ${TREE}`,
  'author Zoë Engineer <zoe@example.com> 1700000000 +0000',
  'committer Config Bot <bot@example.com> 1700000100 +0000',
  '',
  'namespaces: create team-a',
  '',
].join('\n');
const ROOT_COMMIT_ID = '6c4e6e32470c14899d3d98dc2843ca034f5cde16';

const text = (lines: string[]) => Buffer.from(lines.join('\n'), 'utf8');

describe('decodeCommit', () => {
  it('reads a root commit: its tree, no parents, the author with the time as seconds, the message', () => {
    expect(objectId('commit', Buffer.from(ROOT_COMMIT))).toBe(ROOT_COMMIT_ID);
    expect(decodeCommit(Buffer.from(ROOT_COMMIT))).toEqual({
      tree: TREE,
      parents: [],
      author: { name: 'Zoë Engineer', email: 'zoe@example.com', timestamp: 1700000000 },
      message: 'namespaces: create team-a\n',
    });
  });

  it('reads the parents of a merge in order, and a message of several paragraphs whole', () => {
    const merge = decodeCommit(
      text([
        `tree ${TREE}`,
        `parent ${'a'.repeat(40)}`,
        `parent ${'b'.repeat(40)}`,
        'author A <a@example.com> 1700000000 -0700',
        'committer A <a@example.com> 1700000000 -0700',
        '',
        'Merge branch x',
        '',
        'body line',
        '',
      ]),
    );
    expect(merge).toMatchObject({
      parents: ['a'.repeat(40), 'b'.repeat(40)],
      message: 'Merge branch x\n\nbody line\n',
    });
    // The time zone is dropped: the timestamp is the instant itself.
    expect(merge?.author?.timestamp).toBe(1700000000);
  });

  it("passes over headers it does not read, signed commits' continuation lines included", () => {
    const signed = decodeCommit(
      text([
        `tree ${TREE}`,
        `parent ${'c'.repeat(40)}`,
        'author A <a@example.com> 1700000000 +0000',
        'committer A <a@example.com> 1700000000 +0000',
        'encoding ISO-8859-1',
        'gpgsig -----BEGIN PGP SIGNATURE-----',
        ' ',
        ` parent ${'d'.repeat(40)}`,
        ' -----END PGP SIGNATURE-----',
        '',
        'signed',
      ]),
    );
    expect(signed).toMatchObject({ tree: TREE, parents: ['c'.repeat(40)], message: 'signed' });
  });

  it('reads a name without a space before the address, and leaves out an author line it cannot read', () => {
    expect(decodeCommit(text([`tree ${TREE}`, 'author <bot@example.com> 1700000000 +0000', '', 'm']))?.author).toEqual({
      name: '',
      email: 'bot@example.com',
      timestamp: 1700000000,
    });
    const unreadable = decodeCommit(text([`tree ${TREE}`, 'author Someone without an address', '', 'm']));
    expect(unreadable).toEqual({ tree: TREE, parents: [], message: 'm' });
  });

  it('gives an empty message to a commit that has none', () => {
    expect(decodeCommit(text([`tree ${TREE}`, 'author A <a@example.com> 1 +0000']))?.message).toBe('');
  });

  it('refuses a commit without a tree, or with a tree that is not an object id', () => {
    expect(decodeCommit(text(['author A <a@example.com> 1 +0000', '', 'no tree']))).toBeUndefined();
    expect(decodeCommit(text([`tree ${TREE.slice(0, 39)}`, '', 'short']))).toBeUndefined();
    expect(decodeCommit(text([`tree ${TREE.toUpperCase()}`, '', 'upper case']))).toBeUndefined();
    expect(decodeCommit(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('encodeCommit', () => {
  const fields = {
    tree: TREE,
    parents: [],
    author: { name: 'Zoë Engineer', email: 'zoe@example.com', timestamp: 1700000000 },
    committer: { name: 'Config Bot', email: 'bot@example.com', timestamp: 1700000100 },
  };

  it('writes the bytes git writes: the same commit hashes to the id git gave it', () => {
    const encoded = encodeCommit({ ...fields, message: 'namespaces: create team-a' });
    expect(encoded.toString('utf8')).toBe(ROOT_COMMIT);
    expect(objectId('commit', encoded)).toBe(ROOT_COMMIT_ID);
  });

  it('ends the message with one newline, as git does, and reads back what it wrote', () => {
    const parents = ['a'.repeat(40), 'b'.repeat(40)];
    const encoded = encodeCommit({ ...fields, parents, message: 'subject\n\nbody\n' });
    expect(encoded.toString('utf8').endsWith('body\n')).toBe(true);
    expect(decodeCommit(encoded)).toEqual({ tree: TREE, parents, author: fields.author, message: 'subject\n\nbody\n' });
  });
});

describe('identName', () => {
  it('writes "Name <email>", taking out the angle brackets and line breaks that would end the field', () => {
    expect(identName({ name: 'Zoë Engineer', email: 'zoe@example.com' })).toBe('Zoë Engineer <zoe@example.com>');
    expect(identName({ name: ' <Eve>\nMallory ', email: '<eve@example.com>\r\n' })).toBe(
      'EveMallory <eve@example.com>',
    );
  });

  it('cannot be made to forge a committer line', () => {
    const forged = encodeCommit({
      tree: TREE,
      parents: [],
      author: { name: 'x> 1 +0000\ncommitter Someone Else <else@example.com', email: 'a@example.com', timestamp: 5 },
      committer: { name: 'Bot', email: 'bot@example.com', timestamp: 5 },
      message: 'm',
    });
    expect(
      forged
        .toString('utf8')
        .split('\n')
        .filter((line) => line.startsWith('committer ')),
    ).toEqual(['committer Bot <bot@example.com> 5 +0000']);
  });
});
