// What the service's HTTPS accepts and adds, on the real server over loopback with
// certificates made by openssl: under TLS 1.2 only suites with forward secrecy and AEAD
// encryption (also after a certificate renewal, which replaces the secure context), TLS 1.3
// as Node has it; Strict-Transport-Security and nosniff on every answer; a TCP connection
// that never starts its handshake closed after TLS_HANDSHAKE_TIMEOUT.
import { on, once } from 'node:events';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { connect as connectTls, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import type { CertificateFacts, TlsContext } from '../../src/http/transport/tls-context.ts';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { tempDir } from '../helpers/git-fixture.ts';
import { RawConnection } from '../helpers/raw-connection.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { type CertificateFiles, makeCa, makeSignedCertificate } from '../helpers/tls-certificates.ts';

const dir = tempDir('tls-policy-');
const ca = makeCa(dir, 'ca');
const rsa = makeSignedCertificate(dir, ca, 'server-rsa', 'server', 'rsa');
const rsaRenewed = makeSignedCertificate(dir, ca, 'server-rsa-2', 'server', 'rsa');
const ec = makeSignedCertificate(dir, ca, 'server-ec', 'server');
const trust = readFileSync(ca.cert);

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A copy of the pair in a folder of its own, as the service is given it. */
function served(files: CertificateFiles): { cert: string; key: string } {
  const folder = tempDir('tls-policy-served-');
  const cert = join(folder, 'tls.crt');
  const key = join(folder, 'tls.key');
  writeFileSync(cert, readFileSync(files.cert));
  writeFileSync(key, readFileSync(files.key));
  return { cert, key };
}

function start(files: { cert: string; key: string }, env: Record<string, string> = {}): Promise<TestService> {
  return startTestService({
    STORE_BACKEND: 'memory',
    SEED_FILE: asSeedFile(),
    TLS_CERT_FILE: files.cert,
    TLS_KEY_FILE: files.key,
    ...env,
  });
}

/** The suite and version a handshake agrees on, or the error that ended it. */
function handshake(
  url: string,
  options: ConnectionOptions,
): Promise<{ cipher: string; version: string } | { error: string }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket: TLSSocket = connectTls(
      { host: '127.0.0.1', port: Number(port), servername: 'localhost', ca: trust, ...options },
      () => {
        resolve({ cipher: socket.getCipher().name, version: socket.getProtocol() ?? '' });
        socket.destroy();
      },
    );
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

const tls12 = (ciphers: string): ConnectionOptions => ({ ciphers, maxVersion: 'TLSv1.2' });

async function expectPolicy(url: string): Promise<void> {
  // RSA key exchange (no forward secrecy), and ECDHE with CBC: refused.
  expect(await handshake(url, tls12('AES128-SHA'))).toHaveProperty('error');
  expect(await handshake(url, tls12('AES256-GCM-SHA384'))).toHaveProperty('error');
  expect(await handshake(url, tls12('ECDHE-RSA-AES128-SHA'))).toHaveProperty('error');
  expect(await handshake(url, tls12('ECDHE-RSA-AES256-SHA384'))).toHaveProperty('error');
  // ECDHE with AES-GCM or ChaCha20-Poly1305: served.
  for (const cipher of ['ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-RSA-CHACHA20-POLY1305']) {
    expect(await handshake(url, tls12(cipher))).toEqual({ cipher, version: 'TLSv1.2' });
  }
  // A client offering several gets one of those.
  expect(await handshake(url, tls12('AES128-SHA:ECDHE-RSA-AES128-SHA:ECDHE-RSA-AES256-GCM-SHA384'))).toEqual({
    cipher: 'ECDHE-RSA-AES256-GCM-SHA384',
    version: 'TLSv1.2',
  });
  // TLS 1.3 as Node has it.
  expect(await handshake(url, {})).toMatchObject({ version: 'TLSv1.3' });
}

/** The next `reloaded` event naming `fingerprint256`; bounded wait. */
async function reloadedTo(tls: TlsContext, fingerprint256: string): Promise<CertificateFacts> {
  for await (const [facts] of on(tls, 'reloaded', { signal: AbortSignal.timeout(5000) }) as AsyncIterable<
    [CertificateFacts]
  >) {
    if (facts.fingerprint256 === fingerprint256) return facts;
  }
  throw new Error('unreachable');
}

describe('TLS suites', () => {
  it(
    'serves TLS 1.2 only with ECDHE and AES-GCM or ChaCha20-Poly1305 (an RSA certificate), and keeps to it after a ' +
      'renewal',
    async () => {
      const files = served(rsa);
      service = await start(files);
      await expectPolicy(service.url);

      const reloaded = reloadedTo(service.tls!, rsaRenewed.fingerprint256);
      writeFileSync(`${files.key}.tmp`, readFileSync(rsaRenewed.key));
      writeFileSync(`${files.cert}.tmp`, readFileSync(rsaRenewed.cert));
      renameSync(`${files.key}.tmp`, files.key);
      renameSync(`${files.cert}.tmp`, files.cert);
      await reloaded;
      await expectPolicy(service.url);
    },
  );

  it('with an EC certificate: ECDHE-ECDSA with AES-GCM or ChaCha20-Poly1305, no CBC', async () => {
    service = await start(served(ec));
    expect(await handshake(service.url, tls12('ECDHE-ECDSA-AES128-SHA'))).toHaveProperty('error');
    expect(await handshake(service.url, tls12('ECDHE-ECDSA-AES256-SHA384'))).toHaveProperty('error');
    for (const cipher of [
      'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-CHACHA20-POLY1305',
    ]) {
      expect(await handshake(service.url, tls12(cipher))).toEqual({ cipher, version: 'TLSv1.2' });
    }
  });
});

describe('headers over HTTPS', () => {
  it(
    'Strict-Transport-Security (one year) and nosniff on ' + 'every answer: polls, errors, probes, parser refusals',
    async () => {
      service = await start(served(ec));
      const url = service.url;
      const requests: [string, number][] = [
        [
          `GET /api/v2/gitops/clusters/c1.k8s.example.com/namespaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ` +
            `${READ_TOKEN}\r\n\r\n`,
          200,
        ],
        ['GET /api/v2/gitops/clusters/c1.k8s.example.com/namespaces HTTP/1.1\r\nHost: x\r\n\r\n', 401],
        ['GET /health HTTP/1.1\r\nHost: x\r\n\r\n', 200],
        ['GET /openapi.yaml HTTP/1.1\r\nHost: x\r\n\r\n', 200],
        ['GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n', 404],
        ['GET /health HTTP/1.1\r\n\r\n', 400],
        [`GET /health HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(20_000)}\r\n\r\n`, 431],
      ];
      for (const [text, status] of requests) {
        const connection = await RawConnection.openTls(url, { ca: trust, servername: 'localhost' });
        await connection.write(text);
        const answer = await connection.next();
        expect(answer.status, text.slice(0, 60)).toBe(status);
        expect(answer.headers['strict-transport-security'], text.slice(0, 60)).toBe('max-age=31536000');
        expect(answer.headers['x-content-type-options'], text.slice(0, 60)).toBe('nosniff');
        connection.socket.destroy();
      }
    },
  );
});

describe('TLS_HANDSHAKE_TIMEOUT', () => {
  it('closes a TCP connection that never starts its handshake', async () => {
    service = await start(served(ec), { TLS_HANDSHAKE_TIMEOUT: '300ms' });
    const { port } = new URL(service.url);
    const silent = connectTcp(Number(port), '127.0.0.1');
    silent.on('error', () => {});
    await once(silent, 'connect');
    const opened = Date.now();
    await once(silent, 'close', { signal: AbortSignal.timeout(3000) });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(290);
    // A client that does shake hands is served as before.
    expect(await handshake(service.url, {})).toMatchObject({ version: 'TLSv1.3' });
    expect(
      service.logs.find(
        (line) => line.msg === 'TLS handshake failed; connection closed' && line.code === 'ERR_TLS_HANDSHAKE_TIMEOUT',
      ),
    ).toBeDefined();
  });
});
