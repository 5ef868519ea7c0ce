import { describe, expect, it } from 'vitest';
import { bearerToken, tokenEquals } from '../src/http/auth.ts';

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
});
