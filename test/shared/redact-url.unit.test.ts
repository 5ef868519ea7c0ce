// The one function that takes secrets out of URLs in whatever is shown: user info and token
// query words, in a bare URL, in an error message quoting one, in a line of JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUrls } from '../../src/shared/redact-url.ts';
import { fuzzRuns } from '../fuzz/arbitraries.ts';

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

describe('redactUrls', () => {
  it('hides user info and secret query words, keeping the rest of the URL', () => {
    expect(redactUrls('http://user:pw@127.0.0.1:8080/repo.git?private_token=SECRET&ref=main#x')).toBe(
      'http://***@127.0.0.1:8080/repo.git?private_token=***&ref=main#x',
    );
    expect(redactUrls('https://ghp_abcdef@github.com/acme/fleet.git')).toBe('https://***@github.com/acme/fleet.git');
    // The `@` a URL parser splits at is the last one before the path.
    expect(redactUrls('https://bot:p@ss@w0rd@git.example.com/x')).toBe('https://***@git.example.com/x');
    expect(
      redactUrls('https://s3.example.com/b/o?X-Amz-Credential=AK%2F1&X-Amz-Signature=abc123&X-Amz-Date=2025'),
    ).toBe('https://s3.example.com/b/o?X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Date=2025');
    for (const word of [
      'access_token',
      'Token',
      'PASSWORD',
      'passwd',
      'secret',
      'client_secret',
      'api_key',
      'key',
      'sig',
      'private%5Ftoken',
    ]) {
      expect(redactUrls(`https://h/r.git?${word}=v4lue`), word).toBe(`https://h/r.git?${word}=***`);
    }
    expect(redactUrls('https://git.example.com/fleet.git?ref=main&depth=1')).toBe(
      'https://git.example.com/fleet.git?ref=main&depth=1',
    );
  });

  it('hides them inside a longer text and keeps a line of JSON valid', () => {
    expect(
      redactUrls('fetch of https://bot:tok3n@h/r.git failed: HTTP 404 for https://h/r.git?access_token=tok3n'),
    ).toBe('fetch of https://***@h/r.git failed: HTTP 404 for https://h/r.git?access_token=***');
    const line = JSON.stringify({
      url: 'https://u:pa"ss@h/x?token=a"b&c=d',
      email: 'someone@example.com',
      msg: 'a@b and x=y',
    });
    const out = redactUrls(line);
    expect(JSON.parse(out)).toEqual({
      url: 'https://***@h/x?token=***&c=d',
      email: 'someone@example.com',
      msg: 'a@b and x=y',
    });
  });

  it('leaves text without URLs alone', () => {
    for (const text of ['', 'plain words', 'a=b', 'someone@example.com', '{"n":1}'])
      expect(redactUrls(text)).toBe(text);
  });

  it('never lets a secret of a URL through, wherever the URL stands (fast-check)', () => {
    console.log(`redactUrls property: seed ${SEED} (FUZZ_SEED=${SEED} repeats it)`);
    // What a URL may hold in its user info, and in a query value: unreserved characters,
    // sub-delimiters, percent escapes.
    const userinfoChar = fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:".split(''), '%40', '%2F', '@');
    const valueChar = fc.constantFrom(..."abcXYZ019-._~!$'()*+,;=:/?@".split(''), '%26', '%23');
    // A marker makes each secret findable, so that it cannot be mistaken for other text.
    const secret = (chars: fc.Arbitrary<string>) =>
      fc.array(chars, { minLength: 1, maxLength: 12 }).map((cs) => `Zq9${cs.join('')}9qZ`);
    const word = fc.constantFrom(
      'private_token',
      'access_token',
      'token',
      'password',
      'passwd',
      'secret',
      'key',
      'sig',
      'X-Amz-Signature',
      'client_secret',
      'apikey',
    );
    const plainParam = fc
      .tuple(fc.constantFrom('ref', 'depth', 'v'), fc.stringMatching(/^[a-z0-9]{0,6}$/))
      .map(([n, v]) => `${n}=${v}`);
    const url = fc
      .record({
        scheme: fc.constantFrom('http', 'https', 'git+https'),
        user: fc.option(fc.tuple(secret(userinfoChar), fc.option(secret(userinfoChar), { nil: undefined })), {
          nil: undefined,
        }),
        host: fc.constantFrom('127.0.0.1:8080', 'git.example.com', '[::1]:3000'),
        path: fc.constantFrom('/repo.git', '/a/b/c.git', ''),
        params: fc.array(
          fc.oneof(
            plainParam,
            fc.tuple(word, secret(valueChar)).map(([w, s]) => ({ w, s })),
          ),
          { maxLength: 4 },
        ),
        fragment: fc.constantFrom('', '#main'),
      })
      .map(({ scheme, user, host, path, params, fragment }) => {
        const secrets: string[] = [];
        const userinfo = user ? `${user[0]}${user[1] === undefined ? '' : `:${user[1]}`}@` : '';
        if (user) secrets.push(...user.filter((s): s is string => s !== undefined));
        const query = params.map((p) => (typeof p === 'string' ? p : (secrets.push(p.s), `${p.w}=${p.s}`))).join('&');
        return { text: `${scheme}://${userinfo}${host}${path}${query ? `?${query}` : ''}${fragment}`, secrets };
      });
    const context = fc.constantFrom(
      (u: string) => u,
      (u: string) => `the Git remote ${u} could not be reached: HTTP Error: 404`,
      (u: string) => JSON.stringify({ level: 40, url: u, msg: `config repo sync failed for ${u}` }),
      (u: string) => `'${u}' (and https://other.example.com/x)`,
    );
    fc.assert(
      fc.property(url, context, ({ text, secrets }, wrap) => {
        const shown = redactUrls(wrap(text));
        for (const s of secrets) expect(shown, `${wrap(text)} -> ${shown}`).not.toContain(s);
      }),
      { seed: SEED, numRuns: fuzzRuns(2000) },
    );
  });
});
