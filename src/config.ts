// Configuration from the environment. Everything is checked at start, so that a mistake stops
// the process with one clear line instead of surfacing on the first request: the service's
// own settings here, the store's by each backend's folder through store/backends/index.ts.
import { clusterTokenKeysFrom, ConfigError, type Env, SHORT_KEY_LENGTH, secretFrom } from './shared/secret-settings.ts';
import { oneOf, parseByteSize, parseDuration } from './shared/setting-values.ts';
import { backendSettingsFrom, type BackendName, type BackendSettings } from './store/backends/index.ts';
import type { ApiMode } from './store/backends/shared-settings.ts';
import type { TlsSettings } from './http/transport/tls-files.ts';
import { type RolloutSettings, rolloutSettingsFrom } from './serving/rollouts/rollout-settings.ts';
import { type ReceiverSettings, receiverSettingsFrom } from './serving/receivers/receiver-settings.ts';
import { type EventSettings, eventSettingsFrom } from './serving/event-settings.ts';
import { parsePeerSource, type PeerSettings } from './peers/peer-source.ts';
import { type OidcSettings, oidcSettingsFrom } from './http/auth/oidc/oidc-settings.ts';
import {
  DEFAULT_HEADER_TIMEOUT,
  DEFAULT_KEEPALIVE_TIMEOUT,
  DEFAULT_REQUEST_TIMEOUT,
  DEFAULT_TLS_HANDSHAKE_TIMEOUT,
  defaultMaxConnections,
  type HttpLimits,
  openFileLimit,
} from './http/transport/http-limits.ts';

export { ConfigError, parseByteSize, parseDuration, secretFrom };

export type { ApiMode, BackendName, TlsSettings };

export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * Everything the service is started with. What the store needs is BackendSettings, read by
 * the backends' own folders (store/backends/index.ts); API_MODE among them.
 */
export interface ServiceConfig extends BackendSettings, RolloutSettings, ReceiverSettings, EventSettings {
  authToken: string;
  /** Write token; defaults to the read token. */
  crudAuthToken: string;
  openapiFile: string;
  listen: ListenAddress;
  logLevel: string;
  webhookSecret: string | undefined;
  maxBodyBytes: number;
  /** GUARD_ACCEPT_REVISION: revisions the shrink guard lets through (a mass change meant). */
  guardAcceptRevisions: string[];
  /** WRITE_TIMEOUT: how long a write whose store keeps moving under it (another writer) keeps trying. */
  writeTimeoutMs: number;
  /**
   * FLEET_POLL_INTERVAL: how often the clusters' providers poll; three without a poll make a cluster silent (the
   * metrics count them).
   */
  fleetPollIntervalMs: number;
  /** METRICS: /metrics and the fleet poll registry (GET /api/v2/gitops/fleet); off only to measure what they cost. */
  metrics: boolean;
  /** UI: the web UI's files at /ui/ (http/web-ui/ui-routes.ts); off answers 404 there. */
  ui: boolean;
  /** TLS_CERT_FILE, TLS_KEY_FILE, TLS_CLIENT_CA_FILE: HTTPS when set (read in http/transport/tls-files.ts). */
  tls: TlsSettings | undefined;
  /** HTTP_MAX_CONNECTIONS and the timeouts of the HTTP server (see http-limits.ts). */
  http: HttpLimits;
  /** PEERS and PEER_TOKEN: the other replicas this one coordinates with; undefined: it acts alone. */
  peers: PeerSettings | undefined;
  /** CLUSTER_TOKEN_KEYS: every key verifies a cluster token, the first signs; none: cluster tokens are off. */
  clusterTokenKeys: string[];
  /**
   * OIDC_*: people sign in with their issuer's tokens (http/auth/oidc/oidc-settings.ts); undefined without
   * OIDC_ISSUER_URL.
   */
  oidc: OidcSettings | undefined;
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * What a Bearer token may be made of (RFC 6750's b64token): letters, digits, `-._~+/`, then
 * `=` padding. A client sends the token in `Authorization: Bearer <token>` as it is; one with
 * a space, a non-ASCII letter or any other character cannot be sent that way (Flux's Go client
 * would send bytes that never compare equal, or split it at the space).
 */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Tokens shorter than this are logged as a warning at start: a short shared token can be guessed. */
export const SHORT_TOKEN_LENGTH = 16;

/**
 * A bearer token (AUTH_TOKEN, CRUD_AUTH_TOKEN). One that could never be presented in an
 * Authorization header as it is stored — whitespace around it, a control character, any
 * character a Bearer token cannot carry — would refuse every request; it stops the start
 * instead, naming the variable (never the value). A file's one trailing newline is not part
 * of the token (secretFrom drops it).
 */
export function tokenFrom(env: Env, name: string): string | undefined {
  const token = secretFrom(env, name);
  if (token === undefined) return undefined;
  const source = env[`${name}_FILE`] ? `${name}_FILE (${env[`${name}_FILE`]})` : name;
  if (/\p{Cc}/u.test(token)) {
    throw new ConfigError(
      `${source}: the token contains a control character (a stray newline, tab or similar); remove it`,
    );
  }
  if (/^\s|\s$/u.test(token)) {
    throw new ConfigError(`${source}: the token has whitespace at its start or end; remove it`);
  }
  if (!BEARER_TOKEN.test(token)) {
    throw new ConfigError(
      `${source}: the token has a character a Bearer token cannot carry; use only letters A-Z a-z, digits and - . _ ` +
        `~ + /, ` +
        'with = only at the end (e.g. openssl rand -hex 32)',
    );
  }
  return token;
}

/**
 * What is worth a warning, but not a refusal, in the tokens the service starts with: a token
 * short enough to guess, and crud mode without a write token of its own.
 */
export function tokenWarnings(
  config: Pick<ServiceConfig, 'apiMode' | 'authToken' | 'crudAuthToken'> & { peers?: PeerSettings } & Partial<
      Pick<ServiceConfig, 'clusterTokenKeys'>
    >,
): string[] {
  const warnings: string[] = [];
  const tokens: [string, string][] = [['AUTH_TOKEN', config.authToken]];
  if (config.apiMode === 'crud' && config.crudAuthToken !== config.authToken)
    tokens.push(['CRUD_AUTH_TOKEN', config.crudAuthToken]);
  if (config.peers) tokens.push(['PEER_TOKEN', config.peers.token]);
  for (const [name, token] of tokens) {
    if (token.length < SHORT_TOKEN_LENGTH) {
      warnings.push(
        `${name} is shorter than ${SHORT_TOKEN_LENGTH} characters: a short shared token can be guessed; use a long ` +
          `random one (e.g. openssl rand -hex 32)`,
      );
    }
  }
  config.clusterTokenKeys?.forEach((key, i) => {
    if (key.length < SHORT_KEY_LENGTH) {
      warnings.push(
        `CLUSTER_TOKEN_KEYS: key ${i + 1} is shorter than ${SHORT_KEY_LENGTH} characters; use a long random one ` +
          `(e.g. openssl rand -hex 32)`,
      );
    }
  });
  if (config.apiMode === 'crud' && config.crudAuthToken === config.authToken) {
    warnings.push(
      'API_MODE=crud without a distinct CRUD_AUTH_TOKEN (unset, or equal to AUTH_TOKEN): every client holding the ' +
        'read token, ' +
        'every polling cluster included, can write; set CRUD_AUTH_TOKEN to a token of its own',
    );
  }
  return warnings;
}

export function parseListenAddress(value: string): ListenAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]*)):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    throw new ConfigError(`LISTEN_ADDR=${value} is not valid; use host:port, e.g. 0.0.0.0:8080 or [::]:8080`);
  }
  return { host: match[1] ?? (match[2] || '0.0.0.0'), port };
}

function logLevelFrom(env: Env): string {
  if (env.LOG_LEVEL) {
    if (!LOG_LEVELS.includes(env.LOG_LEVEL)) {
      throw new ConfigError(`LOG_LEVEL=${env.LOG_LEVEL} is not valid; use one of: ${LOG_LEVELS.join(', ')}`);
    }
    return env.LOG_LEVEL;
  }
  // RUST_LOG (kept from the reference service: docs/decisions/0017-reference-service-compatibility.md) is honoured when
  // it is a plain level name; a full tracing
  // directive such as "gitops=debug,tower=warn" has no meaning here and is ignored.
  const rust = env.RUST_LOG?.trim().toLowerCase();
  if (rust === 'off') return 'silent';
  if (rust && LOG_LEVELS.includes(rust)) return rust;
  return 'info';
}

/** A whole number of at least 1. */
function positiveInteger(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value.trim()) || Number(value) < 1)
    throw new ConfigError(`${name}=${value} is not valid; use a whole number of at least 1`);
  return Number(value);
}

function httpLimitsFrom(env: Env): HttpLimits {
  const limits: HttpLimits = {
    maxConnections: env.HTTP_MAX_CONNECTIONS
      ? positiveInteger('HTTP_MAX_CONNECTIONS', env.HTTP_MAX_CONNECTIONS)
      : defaultMaxConnections(openFileLimit()),
    headerTimeoutMs: parseDuration('HTTP_HEADER_TIMEOUT', env.HTTP_HEADER_TIMEOUT || DEFAULT_HEADER_TIMEOUT),
    requestTimeoutMs: parseDuration('HTTP_REQUEST_TIMEOUT', env.HTTP_REQUEST_TIMEOUT || DEFAULT_REQUEST_TIMEOUT),
    keepAliveTimeoutMs: parseDuration(
      'HTTP_KEEPALIVE_TIMEOUT',
      env.HTTP_KEEPALIVE_TIMEOUT || DEFAULT_KEEPALIVE_TIMEOUT,
    ),
    tlsHandshakeTimeoutMs: parseDuration(
      'TLS_HANDSHAKE_TIMEOUT',
      env.TLS_HANDSHAKE_TIMEOUT || DEFAULT_TLS_HANDSHAKE_TIMEOUT,
    ),
  };
  // The headers are part of the request: Node refuses a header timeout longer than the request's.
  if (limits.headerTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(
      `HTTP_HEADER_TIMEOUT (${limits.headerTimeoutMs} ms) is longer than HTTP_REQUEST_TIMEOUT ` +
        `(${limits.requestTimeoutMs} ms); the headers are part of the request`,
    );
  }
  return limits;
}

/** The TLS file names; whether the files can be served is checked when the server is made. */
function tlsSettingsFrom(env: Env): TlsSettings | undefined {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  const clientCaFile = env.TLS_CLIENT_CA_FILE || undefined;
  if (certFile === undefined && keyFile === undefined) {
    if (clientCaFile !== undefined)
      throw new ConfigError(
        'TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE (client certificates are asked for over HTTPS only)',
      );
    return undefined;
  }
  if (keyFile === undefined)
    throw new ConfigError('TLS_CERT_FILE is set without TLS_KEY_FILE; set both, or neither for plain HTTP');
  if (certFile === undefined)
    throw new ConfigError('TLS_KEY_FILE is set without TLS_CERT_FILE; set both, or neither for plain HTTP');
  return { certFile, keyFile, clientCaFile };
}

/**
 * PEERS and PEER_TOKEN. The peer token must be a token of its own: it grants the peer paths
 * and nothing else, so it can be neither the read nor the write token. Without PEERS a
 * PEER_TOKEN is not used.
 */
function peerSettingsFrom(env: Env, otherTokens: string[]): PeerSettings | undefined {
  if (!env.PEERS) return undefined;
  let source;
  try {
    source = parsePeerSource(env.PEERS);
  } catch (error) {
    throw new ConfigError(`PEERS: ${(error as Error).message}`);
  }
  const token = tokenFrom(env, 'PEER_TOKEN');
  if (token === undefined)
    throw new ConfigError('PEERS needs PEER_TOKEN (or PEER_TOKEN_FILE): the token replicas present to each other');
  if (otherTokens.includes(token))
    throw new ConfigError('PEER_TOKEN must differ from AUTH_TOKEN and CRUD_AUTH_TOKEN: it grants only the peer paths');
  return { source, token };
}

export function loadConfig(env: Env = process.env): ServiceConfig {
  const authToken = tokenFrom(env, 'AUTH_TOKEN');
  if (!authToken) {
    throw new ConfigError(
      'AUTH_TOKEN is required (the bearer token clusters use to read); set AUTH_TOKEN or AUTH_TOKEN_FILE',
    );
  }
  // Unset means the read token writes too; server.ts warns about that in crud mode.
  const crudAuthToken = tokenFrom(env, 'CRUD_AUTH_TOKEN') ?? authToken;
  const store = backendSettingsFrom(env);
  return {
    ...store,
    authToken,
    crudAuthToken,
    openapiFile: env.OPENAPI_FILE || 'openapi/openapi.yaml',
    listen: parseListenAddress(env.LISTEN_ADDR || '0.0.0.0:8080'),
    logLevel: logLevelFrom(env),
    webhookSecret: secretFrom(env, 'WEBHOOK_SECRET'),
    maxBodyBytes: parseByteSize('MAX_BODY_SIZE', env.MAX_BODY_SIZE || '1mb'),
    guardAcceptRevisions: (env.GUARD_ACCEPT_REVISION ?? '').split(/[\s,]+/).filter((r) => r !== ''),
    writeTimeoutMs: parseDuration('WRITE_TIMEOUT', env.WRITE_TIMEOUT || '10s'),
    fleetPollIntervalMs: parseDuration('FLEET_POLL_INTERVAL', env.FLEET_POLL_INTERVAL || '10m'),
    ...rolloutSettingsFrom(env, store.apiMode),
    ...receiverSettingsFrom(env),
    ...eventSettingsFrom(env),
    metrics: oneOf(env, 'METRICS', ['on', 'off'] as const, 'on') === 'on',
    ui: oneOf(env, 'UI', ['on', 'off'] as const, 'on') === 'on',
    tls: tlsSettingsFrom(env),
    http: httpLimitsFrom(env),
    peers: peerSettingsFrom(env, [authToken, crudAuthToken]),
    clusterTokenKeys: clusterTokenKeysFrom(env),
    oidc: oidcSettingsFrom(env),
  };
}
