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
