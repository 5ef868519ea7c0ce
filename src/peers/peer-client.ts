// Requests from one replica to another, on the peer paths, with PEER_TOKEN. Every request has
// a deadline; whatever goes wrong becomes a PeerFailure with one of a few reasons, which are
// what gitops_config_peer_errors_total counts. Connections are kept alive: an announcement
// must not pay a TCP (or TLS) handshake on the way to publishing.
import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { gunzip } from 'node:zlib';

export const PEER_FAILURE_REASONS = ['unreachable', 'timeout', 'refused', 'bad_answer', 'tls', 'dns'] as const;
export type PeerFailureReason = (typeof PEER_FAILURE_REASONS)[number];

export class PeerFailure extends Error {
  readonly reason: PeerFailureReason;

  constructor(reason: PeerFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** What this replica presents and trusts when the replicas speak HTTPS. */
export interface PeerTls {
  /** The certificate and key this replica serves: presented when the peers require client certificates. */
  clientCertificate(): { cert: Buffer; key: Buffer } | undefined;
  /** CAs trusted beside the system's (TLS_CLIENT_CA_FILE's, which usually signs the replicas too). */
  extraCa(): Buffer | undefined;
  /** The name a peer's certificate must hold, when the address is a bare IP (PEERS as a DNS name). */
  servername: string | undefined;
}

/** Largest answer read from a peer: the poll records of a large fleet, gzipped and not. */
const MAX_COMPRESSED_BYTES = 128 * 1024 * 1024;
const MAX_JSON_BYTES = 512 * 1024 * 1024;

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
]);

export class PeerClient {
  readonly #token: string;
  readonly #tls: PeerTls | undefined;
  // An idle connection is dropped after 30 s, well before the peer's keep-alive timeout
  // (65 s by default) closes it from the other side while a request may be on its way.
  readonly #http = new HttpAgent({ keepAlive: true, maxSockets: 4, timeout: 30_000 });
  readonly #https = new HttpsAgent({ keepAlive: true, maxSockets: 4, timeout: 30_000 });

  constructor(token: string, tls?: PeerTls) {
    this.#token = token;
    this.#tls = tls;
  }

  /** The peer's JSON answer (gzip decoded), or a PeerFailure. */
  request(base: string, method: 'GET' | 'POST', path: string, timeoutMs: number): Promise<unknown> {
    const url = new URL(path, base);
    const secure = url.protocol === 'https:';
    const headers = { authorization: `Bearer ${this.#token}`, 'accept-encoding': 'gzip', 'content-length': '0' };
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (failure: PeerFailure) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(failure);
      };
      const options = secure
        ? { method, headers, agent: this.#https, ...this.#tlsOptions() }
        : { method, headers, agent: this.#http };
      const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
        readAnswer(res).then(
          (answer) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve(answer);
          },
          (error: unknown) =>
            fail(error instanceof PeerFailure ? error : new PeerFailure('unreachable', (error as Error).message)),
        );
      });
      const timer = setTimeout(() => fail(new PeerFailure('timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => fail(socketFailure(error)));
      req.end();
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }

  #tlsOptions(): Record<string, unknown> {
    const tls = this.#tls;
    if (!tls) return {};
    const extraCa = tls.extraCa();
    return {
      ...(tls.servername ? { servername: tls.servername } : {}),
      ...(extraCa ? { ca: [...rootCertificates, extraCa] } : {}),
      ...(tls.clientCertificate() ?? {}),
    };
  }
}

function socketFailure(error: NodeJS.ErrnoException): PeerFailure {
  const code = error.code ?? '';
  if (UNREACHABLE.has(code)) return new PeerFailure('unreachable', code);
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code))
    return new PeerFailure('tls', code);
  return new PeerFailure('unreachable', code || error.message);
}

async function readAnswer(res: IncomingMessage): Promise<unknown> {
  const status = res.statusCode ?? 0;
  if (status === 401 || status === 403) {
    res.resume();
    throw new PeerFailure('refused', `answered ${status}: the peer does not take this PEER_TOKEN`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_COMPRESSED_BYTES)
      throw new PeerFailure('bad_answer', `the answer passed ${MAX_COMPRESSED_BYTES} bytes`);
    chunks.push(chunk);
  }
  if (status < 200 || status > 299) throw new PeerFailure('bad_answer', `answered ${status}`);
  let body: Buffer = Buffer.concat(chunks);
  if (res.headers['content-encoding'] === 'gzip') {
    body = await new Promise<Buffer>((resolve, reject) =>
      gunzip(body, { maxOutputLength: MAX_JSON_BYTES }, (error, out) =>
        error ? reject(new PeerFailure('bad_answer', `gzip: ${error.message}`)) : resolve(out),
      ),
    );
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new PeerFailure('bad_answer', 'the answer is not JSON');
  }
}
