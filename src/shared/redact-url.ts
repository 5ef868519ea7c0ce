// Secrets that travel inside URLs, taken out of any text before it is shown: a log line, a
// /ready answer, an error message. Two forms are common for a Git remote: credentials in the
// user info (https://user:token@host/repo.git) and a token as a query word
// (https://host/repo.git?private_token=..., a signed URL's X-Amz-Signature=...). Both are
// replaced by `***`, keeping the rest of the URL readable.
//
// The text may be a line of JSON (the logger runs every line through this): a match never
// crosses an unescaped double quote, so a replacement stays inside the string it was found
// in, and an escape pair (\" or \\) inside a value is read as part of it, so a secret
// holding a quote is not cut short.

/** A value runs to the next of these; `\x` escape pairs are taken whole. */
const VALUE = String.raw`(?:[^&#\s"\\<>]|\\.)*`;

/**
 * A scheme, `//`, and the user info up to the last `@` before the authority ends (at `/`,
 * `?`, `#`, whitespace or a quote) — the `@` a URL parser splits at, so a password with a
 * raw `@` in it is covered whole. The scheme's length is bounded, and the user info stops at
 * the next `/`, so a long text is scanned in linear time.
 */
const USER_INFO = new RegExp(String.raw`\b([a-z][a-z0-9+.-]{0,31}://)(?:[^\s/?#"\\<>]|\\.)*@`, 'gi');

/**
 * A query word whose name ends in one of these: private_token, access_token, api_key,
 * client_secret, X-Amz-Signature, X-Amz-Credential, sig, password... Matching by ending
 * also hides words nobody listed (a `monkey=` is hidden too: showing less of a URL costs
 * nothing).
 */
const SECRET_WORD = /(?:token|secret|password|passwd|pwd|key|sig|signature|credential|auth|session)$/i;
const QUERY_WORD = new RegExp(String.raw`([?&;])([^=&#\s"\\<>?;]+)=(${VALUE})`, 'g');

/** The text with user info and secret query values of every URL in it replaced by `***`. */
export function redactUrls(text: string): string {
  if (!text.includes('@') && !text.includes('=')) return text;
  return text
    .replace(USER_INFO, '$1***@')
    .replace(QUERY_WORD, (whole, separator: string, name: string, value: string) =>
      value !== '' && SECRET_WORD.test(safeDecode(name)) ? `${separator}${name}=***` : whole,
    );
}

/** A query word's name as it is meant (`private%5Ftoken` is private_token). */
function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
