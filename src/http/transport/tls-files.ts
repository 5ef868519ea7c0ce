// The TLS files the service serves with (TLS_CERT_FILE, TLS_KEY_FILE, TLS_CLIENT_CA_FILE),
// read and checked as one set. At start a problem stops the service naming the variable; on a
// reload (tls-context.ts) the same problem keeps the set served before.
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { StartupError } from '../../shared/startup-error.ts';

/** The certificate files of HTTPS: TLS is on when this is given (parsed in config.ts). */
export interface TlsSettings {
  certFile: string;
  keyFile: string;
  /** When set, every client must present a certificate signed by one of these CAs. */
  clientCaFile: string | undefined;
}

/** The bytes of the files, as read at one moment. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
  clientCa: Buffer | undefined;
}

/** A set of files that passed every check, and what logs say of its certificate. */
export interface TlsMaterial extends TlsFiles {
  /** SHA-256 fingerprint of the served (first) certificate, AA:BB:… */
  fingerprint256: string;
  subject: string;
  /** Expiry of the served certificate, ISO-8601. */
  notAfter: string;
}

/** A TLS file that cannot be served; the message names the variable and the file. */
export class TlsFileError extends StartupError {}

const CERT_VAR = 'TLS_CERT_FILE';
const KEY_VAR = 'TLS_KEY_FILE';
const CA_VAR = 'TLS_CLIENT_CA_FILE';

export function readTlsFiles(settings: TlsSettings): TlsFiles {
  return {
    cert: readOne(CERT_VAR, settings.certFile),
    key: readOne(KEY_VAR, settings.keyFile),
    clientCa: settings.clientCaFile === undefined ? undefined : readOne(CA_VAR, settings.clientCaFile),
  };
}

/**
 * Checks the files the way a TLS handshake would need them: every certificate whole and
 * parseable (a file caught half-written fails here, not in a client's handshake), the key
 * readable and the pair of the first certificate, the client CA bundle whole.
 */
export function checkTlsFiles(settings: TlsSettings, files: TlsFiles): TlsMaterial {
  const [certificate] = certificatesIn(CERT_VAR, settings.certFile, files.cert);
  let key: KeyObject;
  try {
    key = createPrivateKey(files.key);
  } catch (error) {
    throw new TlsFileError(
      `${KEY_VAR} (${settings.keyFile}) is not a readable unencrypted PEM private key: ${(error as Error).message}`,
    );
  }
  if (!certificate.checkPrivateKey(key)) {
    throw new TlsFileError(
      `${KEY_VAR} (${settings.keyFile}) is not the key of the certificate in ${CERT_VAR} (${settings.certFile})`,
    );
  }
  if (files.clientCa !== undefined) certificatesIn(CA_VAR, settings.clientCaFile!, files.clientCa);
  try {
    // What the server will do with them: anything OpenSSL still refuses is found now.
    createSecureContext(secureContextOptions(files));
  } catch (error) {
    throw new TlsFileError(
      `${CERT_VAR} (${settings.certFile}) and ${KEY_VAR} (${settings.keyFile}) cannot be served: ` +
        `${(error as Error).message}`,
    );
  }
  return {
    ...files,
    fingerprint256: certificate.fingerprint256,
    subject: certificate.subject.replace(/\n/g, ', '),
    notAfter: new Date(certificate.validTo).toISOString(),
  };
}

export function readTlsMaterial(settings: TlsSettings): TlsMaterial {
  return checkTlsFiles(settings, readTlsFiles(settings));
}

/**
 * TLS 1.2 and 1.3 only. Under TLS 1.2, only suites with forward secrecy (ECDHE: a recorded
 * session cannot be read later with the server's key) and AEAD encryption (AES-GCM,
 * ChaCha20-Poly1305: no CBC padding oracles); every client of the last decade, Go's among
 * them, offers one. TLS 1.3's suites all are both, and stay as Node sets them.
 */
export const TLS_POLICY = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
} as const satisfies SecureContextOptions;

/**
 * The part of the server's options that a reload replaces (server.setSecureContext): the
 * files, and the TLS policy with them, since a renewal replaces the versions and suites too
 * with what it is given (left out, they would fall back to Node's defaults).
 */
export function secureContextOptions(files: TlsFiles): SecureContextOptions {
  return { ...TLS_POLICY, cert: files.cert, key: files.key, ...(files.clientCa ? { ca: files.clientCa } : {}) };
}

/** True when both hold the same bytes: a folder event that changed none of the files. */
export function sameTlsFiles(a: TlsFiles, b: TlsFiles): boolean {
  const sameCa =
    a.clientCa === undefined || b.clientCa === undefined ? a.clientCa === b.clientCa : a.clientCa.equals(b.clientCa);
  return sameCa && a.cert.equals(b.cert) && a.key.equals(b.key);
}

function readOne(variable: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new TlsFileError(
      `${variable}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

const BEGIN = '-----BEGIN CERTIFICATE-----';
const BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Every PEM certificate of a file (a chain or a CA bundle), each parsed; at least one. */
function certificatesIn(variable: string, file: string, bytes: Buffer): X509Certificate[] {
  const text = bytes.toString('latin1');
  const blocks = text.match(BLOCK) ?? [];
  if (blocks.length !== text.split(BEGIN).length - 1) {
    throw new TlsFileError(`${variable} (${file}) ends in an incomplete PEM certificate (a file still being written?)`);
  }
  if (blocks.length === 0) throw new TlsFileError(`${variable} (${file}) holds no PEM certificate`);
  return blocks.map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch (error) {
      throw new TlsFileError(
        `${variable} (${file}): certificate ${index + 1} cannot be parsed: ${(error as Error).message}`,
      );
    }
  });
}
