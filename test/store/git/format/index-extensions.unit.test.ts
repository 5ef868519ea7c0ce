// What a write does with the extensions after an index's entries (src/store/git/format/
// index-extensions.ts), by git's rule (gitformat-index(5)): a signature starting with 'A'..'Z'
// is an optional cache, any other is required. REUC is kept, every other optional one
// dropped, a required one refuses the write, and extensions that do not add up are damage.
import { describe, expect, it } from 'vitest';
import { describeRequiredExtension, sortExtensions } from '../../../../src/store/git/format/index-extensions.ts';

/** One extension: its signature, its size (32-bit, big-endian), its bytes. */
function extension(signature: string, body: string | Buffer): Buffer {
  const data = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(data.length);
  return Buffer.concat([Buffer.from(signature, 'latin1'), size, data]);
}

/** Extensions as they sit in an index: after `lead` bytes of entries, before a 20-byte checksum. */
function inIndex(...extensions: Buffer[]): { index: Buffer; from: number; end: number } {
  const lead = Buffer.alloc(12, 1);
  const body = Buffer.concat(extensions);
  return { index: Buffer.concat([lead, body, Buffer.alloc(20, 9)]), from: lead.length, end: lead.length + body.length };
}

const sort = ({ index, from, end }: ReturnType<typeof inIndex>) => sortExtensions(index, from, end);

describe('sortExtensions', () => {
  const reuc = extension('REUC', 'clusters/c1.yaml\x00100644\x00100644\x00100644\x00');
  const otherReuc = extension('REUC', 'namespaces/a.yaml\x000\x00100644\x00100644\x00');

  it('keeps nothing when there are no extensions', () => {
    expect(sort(inIndex())).toEqual({ kept: Buffer.alloc(0) });
  });

  it('keeps REUC byte for byte, in order, and drops the caches that a changed entry makes wrong', () => {
    for (const signature of ['TREE', 'UNTR', 'FSMN', 'EOIE', 'IEOT', 'ZZZZ']) {
      expect(sort(inIndex(extension(signature, 'x'.repeat(9)))), signature).toEqual({ kept: Buffer.alloc(0) });
    }
    const mixed = sort(
      inIndex(extension('TREE', 'tree cache'), reuc, extension('UNTR', ''), otherReuc, extension('EOIE', '12345678')),
    );
    expect(mixed).toEqual({ kept: Buffer.concat([reuc, otherReuc]) });
  });

  it('refuses a required extension, wherever it stands: a split index, a sparse one, one not known', () => {
    expect(sort(inIndex(extension('link', 'x'.repeat(20))))).toEqual({ required: 'link' });
    expect(sort(inIndex(extension('TREE', 'x'), extension('sdir', '')))).toEqual({ required: 'sdir' });
    expect(sort(inIndex(reuc, extension('wxyz', 'later')))).toEqual({ required: 'wxyz' });
    // Only 'A'..'Z' first makes one optional: a digit or '@' does not.
    expect(sort(inIndex(extension('1ABC', '')))).toEqual({ required: '1ABC' });
    expect(sort(inIndex(extension('@ABC', '')))).toEqual({ required: '@ABC' });
  });

  it('calls the extensions damaged when a header is cut off or a size runs past the checksum', () => {
    const { index, from, end } = inIndex(reuc);
    expect(sortExtensions(index, from, end - 1)).toEqual({ damaged: true });
    expect(sortExtensions(index, from, from + 7)).toEqual({ damaged: true });
    const oversized = Buffer.from(index);
    oversized.writeUInt32BE(reuc.length, from + 4);
    expect(sortExtensions(oversized, from, end)).toEqual({ damaged: true });
  });
});

describe('describeRequiredExtension', () => {
  it('names the setting behind the two git defines, and quotes any other', () => {
    expect(describeRequiredExtension('link')).toBe('split (core.splitIndex)');
    expect(describeRequiredExtension('sdir')).toBe('sparse (index.sparse)');
    expect(describeRequiredExtension('wxyz')).toBe(
      'extended with "wxyz", an extension that must be kept but is not known here',
    );
  });
});
