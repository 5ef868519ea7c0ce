// Certificates for the TLS tests, made with openssl in a temporary folder: a CA, server
// certificates for 127.0.0.1 and localhost signed by it, client certificates. EC keys, so that
// making a few of them per test file takes milliseconds; RSA where a test needs the RSA suites.
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommandText } from './process-starter.ts';

export interface CertificateFiles {
  /** PEM certificate file. */
  cert: string;
  /** PEM private key file. */
  key: string;
  /** The certificate's SHA-256 fingerprint, as Node prints it (AA:BB:…). */
  fingerprint256: string;
}

function openssl(dir: string, ...args: string[]): void {
  runCommandText('openssl', args, { cwd: dir });
}

function fingerprintOf(certFile: string): string {
  return new X509Certificate(readFileSync(certFile)).fingerprint256;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const RSA_KEY = ['-newkey', 'rsa:2048', '-nodes'];

/** A self-signed CA named `name`: `<name>.crt`, `<name>.key` in dir. */
export function makeCa(dir: string, name: string): CertificateFiles {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  openssl(
    dir,
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  return { cert, key, fingerprint256: fingerprintOf(cert) };
}

/**
 * A certificate signed by `ca`: for a server (127.0.0.1 and localhost in its SAN), for a
 * client (clientAuth; no SAN unless `names.dnsNames` gives its DNS names), or for both.
 * Its subject's CN is `names.commonName`, else `name`. `<name>.crt`, `<name>.key` in dir.
 */
export function makeSignedCertificate(
  dir: string,
  ca: CertificateFiles,
  name: string,
  use: 'server' | 'client' | 'server and client',
  keyType: 'ec' | 'rsa' = 'ec',
  names: { dnsNames?: string[]; commonName?: string } = {},
): CertificateFiles {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const extensions = join(dir, `${name}.ext`);
  const usage = { server: 'serverAuth', client: 'clientAuth', 'server and client': 'serverAuth,clientAuth' }[use];
  const san =
    use === 'client' ? (names.dnsNames ?? []).map((dns) => `DNS:${dns}`).join(',') : 'IP:127.0.0.1,DNS:localhost';
  // An RSA key may also encipher: the suites without forward secrecy (that the service must refuse) need it.
  const keyUsage = keyType === 'rsa' ? 'digitalSignature,keyEncipherment' : 'digitalSignature';
  writeFileSync(
    extensions,
    `${san === '' ? '' : `subjectAltName=${san}\n`}extendedKeyUsage=${usage}\nkeyUsage=critical,${keyUsage}\n`,
  );
  openssl(
    dir,
    'req',
    '-new',
    ...(keyType === 'rsa' ? RSA_KEY : EC_KEY),
    '-keyout',
    key,
    '-out',
    csr,
    '-subj',
    `/CN=${names.commonName ?? name}`,
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    extensions,
    '-out',
    cert,
  );
  return { cert, key, fingerprint256: fingerprintOf(cert) };
}
