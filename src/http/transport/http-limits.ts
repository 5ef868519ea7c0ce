// The HTTP server's limits: how many connections it holds, and how long each stage of a
// request may take. Without them a client that opens connections and sends nothing (or one
// header line at a time, or a body one byte at a time) holds a socket and a file descriptor
// for minutes; enough of them and the store cannot open its files (EMFILE) and /health
// fails. Each default is chosen against the client the service is built for: the Flux
// Operator's ExternalService provider, a Go net/http client that builds a new transport for
// every poll (so it never reuses a connection between polls; Go keeps an idle connection 90 s
// and gives a TLS handshake 10 s), polls every few minutes, and sends a whole GET at once.
import { readFileSync } from 'node:fs';

export interface HttpLimits {
  /** HTTP_MAX_CONNECTIONS: connections held at once; more are closed as they arrive. */
  maxConnections: number;
  /** HTTP_HEADER_TIMEOUT: from a connection's start (or a request's first byte) to its last header. */
  headerTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT: from a request's first byte to the last byte of its body. */
  requestTimeoutMs: number;
  /** HTTP_KEEPALIVE_TIMEOUT: how long an idle connection is kept for a next request. */
  keepAliveTimeoutMs: number;
  /** TLS_HANDSHAKE_TIMEOUT: from a TCP connection to the end of its TLS handshake. */
  tlsHandshakeTimeoutMs: number;
}

/**
 * Ten seconds: a Go client writes its request at once, so its headers arrive within a round
 * trip; ten seconds is far beyond any network it runs on, and a connection that sends
 * nothing is let go after that instead of after a minute.
 */
export const DEFAULT_HEADER_TIMEOUT = '10s';

/**
 * Thirty seconds: the largest body (MAX_BODY_SIZE, 1 MiB) arrives within a few seconds even
 * on a slow link; polls have no body at all.
 */
export const DEFAULT_REQUEST_TIMEOUT = '30s';

/**
 * Sixty-five seconds: longer than the 60-second idle timeout of the proxies usually put in
 * front (ingress-nginx's upstream keep-alive, AWS's load balancers), so that the proxy
 * closes an idle connection first and never sends a request down one the service is just
 * closing. The Flux client never reuses a connection between polls, so for it each poll
 * holds one idle connection this long: 10,000 clusters with three providers each, every ten
 * minutes, hold about 3,300.
 */
export const DEFAULT_KEEPALIVE_TIMEOUT = '65s';

/** Ten seconds: what Go's client waits for a TLS handshake itself; waiting longer serves no client. */
export const DEFAULT_TLS_HANDSHAKE_TIMEOUT = '10s';

/**
 * Connections held at most by default, whatever the file limit: each costs about 20 KiB of memory over plain HTTP, more
 * over TLS.
 */
export const MAX_CONNECTIONS_CAP = 16_384;

/** The default when the file limit cannot be read (not Linux). */
export const MAX_CONNECTIONS_FALLBACK = 4096;

/** Descriptors left to the rest of the process at the least, whatever the limit. */
const RESERVED_FILES = 64;

/**
 * The default HTTP_MAX_CONNECTIONS: three quarters of the process's open-file limit (each
 * connection is a file descriptor), at most MAX_CONNECTIONS_CAP. The quarter left, and at
 * least 64, is the rest of the process's: Node's own (about 20: standard streams, the event
 * loop's), and the store's — the files a repository scan reads (32 at a time), Git's objects
 * and lock files, SQLite's database and journals, the certificate files.
 */
export function defaultMaxConnections(openFileLimit: number | undefined): number {
  if (openFileLimit === undefined) return MAX_CONNECTIONS_FALLBACK;
  return Math.max(1, Math.min(MAX_CONNECTIONS_CAP, Math.floor(openFileLimit * 0.75), openFileLimit - RESERVED_FILES));
}

/**
 * The soft limit on open files (RLIMIT_NOFILE) as Linux reports it in /proc/self/limits;
 * undefined when it cannot be read, and for "unlimited".
 */
export function openFileLimit(
  limits: () => string = () => readFileSync('/proc/self/limits', 'utf8'),
): number | undefined {
  let text: string;
  try {
    text = limits();
  } catch {
    return undefined;
  }
  const match = /^Max open files\s+(\d+)\s/m.exec(text);
  return match ? Number(match[1]) : undefined;
}
