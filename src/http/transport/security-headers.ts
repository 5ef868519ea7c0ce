// Headers every answer carries, whichever path wrote it (the read path, Express, an error,
// a request the HTTP parser refused):
//
// - `X-Content-Type-Options: nosniff`: a browser that opens an answer (an error message
//   echoing a path, a YAML document) takes it as the Content-Type says and never guesses it
//   is HTML or script.
// - `Strict-Transport-Security` over HTTPS only: a browser that has seen the service over
//   HTTPS goes on using HTTPS for a year instead of trying plain HTTP first. Without
//   includeSubDomains: the service does not speak for the other names of its domain. Over
//   plain HTTP the header means nothing (browsers ignore it there), so it is not sent.
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** One year, in seconds: long enough that a browser rarely asks again over plain HTTP. */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

const PLAIN_OBJECT: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff' };
const OVER_TLS_OBJECT: Readonly<Record<string, string>> = {
  ...PLAIN_OBJECT,
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}`,
};
const PLAIN: readonly string[] = Object.entries(PLAIN_OBJECT).flat();
const OVER_TLS: readonly string[] = Object.entries(OVER_TLS_OBJECT).flat();

const overTls = (socket: Socket | null | undefined): boolean =>
  (socket as TLSSocket | null | undefined)?.encrypted === true;

/** The headers as [name, value, name, value, …], for the connection the answer goes out on. */
export function securityHeaders(socket: Socket | null | undefined): readonly string[] {
  return overTls(socket) ? OVER_TLS : PLAIN;
}

/** The same headers as an object, for writeHead with an object and for raw answers. */
export function securityHeaderObject(socket: Socket | null | undefined): Readonly<Record<string, string>> {
  return overTls(socket) ? OVER_TLS_OBJECT : PLAIN_OBJECT;
}
