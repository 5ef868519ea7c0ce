// Object ids (src/store/git/format/object-id.ts): the SHA-1 of "<type> <length>\0<content>",
// checked against ids git prints for the same content (`git hash-object`, `git mktree`).
import { describe, expect, it } from 'vitest';
import { objectId } from '../../../../src/store/git/format/object-id.ts';

describe('objectId', () => {
  it('gives the ids git gives', () => {
    expect(objectId('blob', Buffer.alloc(0))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(objectId('tree', Buffer.alloc(0))).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    // printf 'id: c1\n' | git hash-object --stdin
    expect(objectId('blob', Buffer.from('id: c1\n'))).toBe('92fccdcb39cb92c8e6ca1a6e626a7881ab807610');
    // The length counts bytes (8 here), not characters (6): printf 'Grüße\n' | git hash-object --stdin
    expect(objectId('blob', Buffer.from('Grüße\n'))).toBe('05bb5b40eaf6cd35f14fb829a0a85d61c8875418');
  });

  it('depends on the type as well as the content', () => {
    expect(objectId('commit', Buffer.alloc(0))).not.toBe(objectId('blob', Buffer.alloc(0)));
  });
});
