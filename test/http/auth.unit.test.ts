import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basicPassword, bearerToken, presentedToken, tokenEquals } from '../../src/http/auth/credentials.ts';

describe('token comparison', () => {
  it('is true only for the exact token', () => {
    expect(tokenEquals('secret-token', 'secret-token')).toBe(true);
    expect(tokenEquals('secret-tokeN', 'secret-token')).toBe(false);
    expect(tokenEquals('secret-toke', 'secret-token')).toBe(false);
    expect(tokenEquals('secret-token2', 'secret-token')).toBe(false);
    expect(tokenEquals('', 'secret-token')).toBe(false);
    expect(tokenEquals('sécret', 'secret')).toBe(false);
  });
});

describe('bearer header parsing', () => {
  it('takes the token after a case-insensitive Bearer scheme', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  // `Bearer <token>` is read without a regex; white space of any kind sends it back to the regex.
  const byRegex = (header: string) => /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];

  it('reads a header as the regex would, white space of every kind included', () => {
    for (const space of [
      ' ',
      '\t',
      '\n',
      '\v',
      '\f',
      '\r',
      '\u00a0',
      '\u1680',
      '\u2003',
      '\u2028',
      '\u3000',
      '\ufeff',
    ]) {
      for (const header of [
        `Bearer${space}abc`,
        `Bearer ${space}abc`,
        `Bearer abc${space}`,
        `Bearer a${space}bc`,
        `Bearer ${space}`,
        `Bearer abc${space}${space}`,
      ]) {
        expect([JSON.stringify(header), bearerToken(header)]).toEqual([JSON.stringify(header), byRegex(header)]);
      }
    }
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer é-token')).toBe('é-token');
    expect(bearerToken('Bearer 令牌')).toBe('令牌');
  });

  it('reads any header as the regex would (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', '9', '.', '-', ' ', '\t', '\u00a0', '\u2000', 'é', '令'),
    });
    fc.assert(
      fc.property(fc.constantFrom('Bearer ', 'bearer ', 'Bearer', 'BEARER\t', 'Basic ', ''), text, (scheme, rest) => {
        expect(bearerToken(scheme + rest)).toBe(scheme + rest === '' ? undefined : byRegex(scheme + rest));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('Basic credentials', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  it('give the password, whatever the user name', () => {
    expect(basicPassword(basic('flux:secret'))).toBe('secret');
    expect(basicPassword(basic(':secret'))).toBe('secret');
    expect(basicPassword(basic('a:b:c'))).toBe('b:c');
    expect(basicPassword(`basic  ${Buffer.from('u:p').toString('base64')} `)).toBe('p');
    expect(basicPassword(basic('user:'))).toBeUndefined();
    expect(basicPassword(basic('no-colon'))).toBeUndefined();
    expect(basicPassword('Basic not base64!')).toBeUndefined();
    expect(basicPassword('Bearer abc')).toBeUndefined();
  });

  it('are one of the two ways to present a token', () => {
    expect(presentedToken('Bearer abc')).toBe('abc');
    expect(presentedToken(basic('u:abc'))).toBe('abc');
    expect(presentedToken(undefined)).toBeUndefined();
  });
});
