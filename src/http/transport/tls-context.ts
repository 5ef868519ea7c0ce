// HTTPS for the service: the server made with the files of TLS_CERT_FILE, TLS_KEY_FILE and
// TLS_CLIENT_CA_FILE, and those files served anew without a restart when they change
// (cert-manager renews a certificate weeks before it expires and rewrites its Secret).
//
// A reload replaces the server's secure context (server.setSecureContext): connections made
// from then on get the new certificate, open ones keep theirs. A set of files that fails the
// checks (a pair caught half-written, a key of another certificate) is logged and the set
// served before stays, until the files change again.
import type { Socket } from 'node:net';
import { EventEmitter } from 'node:events';
import type { RequestListener } from 'node:http';
import { createServer, type Server as HttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https';
import type { Logger } from 'pino';
import { watchFolders } from './folder-watch.ts';
import {
  checkTlsFiles,
  readTlsFiles,
  readTlsMaterial,
  sameTlsFiles,
  secureContextOptions,
  TlsFileError,
  type TlsFiles,
  type TlsMaterial,
  type TlsSettings,
} from './tls-files.ts';

/** What is logged, and told to listeners, of a certificate being served. */
export interface CertificateFacts {
  fingerprint256: string;
  subject: string;
  notAfter: string;
}

interface TlsContextEvents {
  /** A new set of files is served; its certificate. */
  reloaded: [CertificateFacts];
  /** A changed set of files was refused; the one before stays served. */
  refused: [{ message: string }];
}

/** Events settle this long before the files are read again (a pair is written in two steps). */
const SETTLE_MS = 100;
/** The files are read again this often regardless, in case a change raised no event. */
const RECHECK_MS = 60_000;

export class TlsContext extends EventEmitter<TlsContextEvents> {
  readonly #settings: TlsSettings;
  readonly #log: Logger;
  #material: TlsMaterial;
  /** The set refused last: the periodic check does not log it again while it stays. */
  #refused: TlsFiles | undefined;
  #server: HttpsServer | undefined;
  #stopWatching: (() => void) | undefined;

  private constructor(settings: TlsSettings, material: TlsMaterial, log: Logger) {
    super();
    this.#settings = settings;
    this.#material = material;
    this.#log = log;
  }

  /** Reads and checks the files; throws TlsFileError (a StartupError) naming the variable. */
  static load(settings: TlsSettings, log: Logger): TlsContext {
    const context = new TlsContext(settings, readTlsMaterial(settings), log);
    context.#warnIfExpired();
    return context;
  }

  get certificate(): CertificateFacts {
    return factsOf(this.#material);
  }

  get requiresClientCertificates(): boolean {
    return this.#settings.clientCaFile !== undefined;
  }

  /** The certificate and key served now, and the client CAs: what this replica presents to and trusts in its peers. */
  get material(): Readonly<Pick<TlsMaterial, 'cert' | 'key' | 'clientCa'>> {
    return this.#material;
  }

  /**
   * The HTTPS server, its files watched from now on. With a client CA, a client without a
   * certificate signed by it is refused in the handshake, before any HTTP is read.
   */
  createServer(options: HttpsServerOptions, listener: RequestListener): HttpsServer {
    const clientCertificates = this.requiresClientCertificates;
    const server = createServer(
      {
        ...options,
        ...secureContextOptions(this.#material),
        requestCert: clientCertificates,
        rejectUnauthorized: clientCertificates,
      },
      listener,
    );
    server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: Socket) => this.#handshakeFailed(error, socket));
    this.#server = server;
    const files = [this.#settings.certFile, this.#settings.keyFile, this.#settings.clientCaFile].filter(
      (f) => f !== undefined,
    );
    this.#stopWatching = watchFolders(files, () => this.reload(), {
      settleMs: SETTLE_MS,
      recheckMs: RECHECK_MS,
      log: this.#log,
    });
    return server;
  }

  /**
   * Reads the files again and serves them if they changed and pass the checks. Called when
   * their folders change and periodically; true when a new set is served.
   */
  reload(): boolean {
    let files: TlsFiles;
    try {
      files = readTlsFiles(this.#settings);
    } catch (error) {
      // Logged every time it is found so: a missing file is a problem to see, not to hide.
      return this.#refuse(error);
    }
    if (sameTlsFiles(files, this.#material)) {
      this.#refused = undefined;
      return false;
    }
    if (this.#refused && sameTlsFiles(files, this.#refused)) return false;
    let material: TlsMaterial;
    try {
      material = checkTlsFiles(this.#settings, files);
    } catch (error) {
      this.#refused = files;
      return this.#refuse(error);
    }
    this.#server?.setSecureContext(secureContextOptions(material));
    this.#material = material;
    this.#refused = undefined;
    this.#log.info({ tls: factsOf(material) }, 'TLS certificate reloaded');
    this.#warnIfExpired();
    this.emit('reloaded', factsOf(material));
    return true;
  }

  /** Stops watching the files. */
  close(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }

  #refuse(error: unknown): false {
    if (!(error instanceof TlsFileError)) throw error;
    this.#log.warn(
      { error: error.message, served: this.#material.fingerprint256 },
      'TLS files changed but cannot be served; the certificate served before stays',
    );
    this.emit('refused', { message: error.message });
    return false;
  }

  #warnIfExpired(): void {
    if (Date.parse(this.#material.notAfter) > Date.now()) return;
    this.#log.warn(
      { tls: factsOf(this.#material) },
      'the certificate in TLS_CERT_FILE has expired; clients will refuse it',
    );
  }

  #handshakeFailed(error: NodeJS.ErrnoException, socket: Socket): void {
    // A peer that closes before the handshake (a TCP health check, a port scan) says nothing
    // worth a warning; a refused client certificate or plain HTTP on this port does.
    const quiet = error.code === 'ECONNRESET' || error.code === 'EPIPE';
    this.#log[quiet ? 'debug' : 'warn'](
      { code: error.code, remote: socket.remoteAddress, message: error.message },
      'TLS handshake failed; connection closed',
    );
    socket.destroy();
  }
}

function factsOf(material: TlsMaterial): CertificateFacts {
  return { fingerprint256: material.fingerprint256, subject: material.subject, notAfter: material.notAfter };
}
