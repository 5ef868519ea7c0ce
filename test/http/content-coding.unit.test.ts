import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../src/http/transport/content-coding.ts';

describe('acceptsGzip (Accept-Encoding q-values)', () => {
  it.each([
    ['gzip', true],
    ['GZIP', true],
    ['gzip, deflate, br', true],
    ['*', true],
    ['gzip;q=0.001', true],
    ['identity;q=0, *', true],
    ['deflate;q=1, gzip;q=0.5', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*, gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['identity, gzip;q=0.5', false],
    ['gzip;q=abc', false],
  ] as const)('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it('never throws, and a refused gzip stays refused whatever else the header lists', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        acceptsGzip(before);
        const header = `${before.replace(/gzip/gi, 'x')}, gzip;q=0, ${after.replace(/gzip/gi, 'x')}`;
        expect(acceptsGzip(header)).toBe(false);
      }),
    );
  });
});
