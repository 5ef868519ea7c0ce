// HTTPS and client certificates on the real server over loopback, with certificates made by
// openssl for the test: the configured certificate is served, a client CA refuses clients
// without a certificate in the handshake, renewed files are served without a restart (renamed
// into place, and swapped the way Kubernetes updates a mounted Secret), shutdown and parser
// errors behave as over plain HTTP.
import { on, once } from 'node:events';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateFacts, TlsContext } from '../../src/http/transport/tls-context.ts';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { tempDir } from '../helpers/git-fixture.ts';
import { RawConnection } from '../helpers/raw-connection.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';
import { type CertificateFiles, makeCa, makeSignedCertificate } from '../helpers/tls-certificates.ts';

const dir = tempDir('tls-');
const ca = makeCa(dir, 'ca');
const first = makeSignedCertificate(dir, ca, 'server-1', 'server');
const second = makeSignedCertificate(dir, ca, 'server-2', 'server');
const third = makeSignedCertificate(dir, ca, 'server-3', 'server');
const clientCa = makeCa(dir, 'client-ca');
const client = makeSignedCertificate(dir, clientCa, 'client', 'client');
const otherCa = makeCa(dir, 'other-ca');
const stranger = makeSignedCertificate(dir, otherCa, 'stranger', 'client');
const trust = readFileSync(ca.cert);

interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The certificate the server presented on this (new) connection. */
  fingerprint256: string;
}

/** One request on a new connection, the server's certificate checked against the test CA. */
function get(url: string, path: string, options: RequestOptions = {}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, url), { ca: trust, agent: false, ...options }, (res) => {
      const fingerprint256 = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, fingerprint256 }));
    });
    req.on('error', reject);
    req.end();
  });
}

const withToken = (extra: RequestOptions = {}): RequestOptions => ({
  headers: { authorization: `Bearer ${READ_TOKEN}` },
  ...extra,
});
const withClientCertificate = (files: CertificateFiles): RequestOptions => ({
  cert: readFileSync(files.cert),
  key: readFileSync(files.key),
});

/** The next `reloaded` event naming `fingerprint256` (others are passed over); bounded wait. */
async function reloadedTo(tls: TlsContext, fingerprint256: string, timeoutMs = 5000): Promise<CertificateFacts> {
  // on() listens from this call on, before the caller changes the files.
  for await (const [facts] of on(tls, 'reloaded', { signal: AbortSignal.timeout(timeoutMs) }) as AsyncIterable<
    [CertificateFacts]
  >) {
    if (facts.fingerprint256 === fingerprint256) return facts;
  }
  throw new Error('unreachable');
}

/** A folder holding tls.crt and tls.key copied from `files`, as a service is given them. */
function servedFolder(files: CertificateFiles): { folder: string; cert: string; key: string } {
  const folder = tempDir('tls-served-');
  writeFileSync(join(folder, 'tls.crt'), readFileSync(files.cert));
  writeFileSync(join(folder, 'tls.key'), readFileSync(files.key));
  return { folder, cert: join(folder, 'tls.crt'), key: join(folder, 'tls.key') };
}

/** Writes `content` next to `target` and renames it into place (how certificate tools write). */
function replaceFile(target: string, content: Buffer): void {
  writeFileSync(`${target}.tmp`, content);
  renameSync(`${target}.tmp`, target);
}

const memoryStore = () => ({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile() });

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('HTTPS', () => {
  it('serves the probes and the read endpoints with the configured certificate, verified against its CA', async () => {
    const served = servedFolder(first);
    service = await startTestService({ ...memoryStore(), TLS_CERT_FILE: served.cert, TLS_KEY_FILE: served.key });
    expect(service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await get(service.url, '/health');
    expect(health.status).toBe(200);
    expect(health.fingerprint256).toBe(first.fingerprint256);
    expect((await get(service.url, '/ready')).status).toBe(200);
    const read = await get(service.url, '/api/v2/gitops/clusters', withToken());
    expect(read.status).toBe(200);
    expect(read.headers['x-config-revision']).toBeDefined();
    expect((await get(service.url, '/api/v2/gitops/clusters')).status).toBe(401);
    // By name too: the certificate names localhost.
    expect((await get(service.url.replace('127.0.0.1', 'localhost'), '/health')).status).toBe(200);
    const started = service.logs.find((line) => line.msg === 'gitops-config-api started');
    expect(started?.tls).toMatchObject({ fingerprint256: first.fingerprint256, client_certificates: false });
  });

  it('answers what the HTTP parser refuses with a JSON error, as over plain HTTP', async () => {
    const served = servedFolder(first);
    service = await startTestService({ ...memoryStore(), TLS_CERT_FILE: served.cert, TLS_KEY_FILE: served.key });
    const connection = await RawConnection.openTls(service.url, { ca: trust, servername: 'localhost' });
    await connection.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(20_000) + '\r\n\r\n');
    const answer = await connection.next();
    expect(answer.status).toBe(431);
    expect(answer.json()).toMatchObject({ error: 'headers_too_large' });
    await connection.closed;
  });

  it('closes at once idle TLS connections and a handshake that never comes; an in-flight write finishes', async () => {
    const served = servedFolder(first);
    service = await startTestService({
      ...memoryStore(),
      API_MODE: 'crud',
      CRUD_AUTH_TOKEN: WRITE_TOKEN,
      TLS_CERT_FILE: served.cert,
      TLS_KEY_FILE: served.key,
    });
    const { port } = new URL(service.url);
    const idle = await RawConnection.openTls(service.url, { ca: trust, servername: 'localhost' });
    await idle.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await idle.next()).status).toBe(200);
    // A TCP connection that never starts its handshake.
    const silent = connectTcp(Number(port), '127.0.0.1');
    silent.on('error', () => {});
    await once(silent, 'connect');
    const silentClosed = once(silent, 'close');

    const body = JSON.stringify({ labels: { over: 'tls' } });
    const writing = await RawConnection.openTls(service.url, { ca: trust, servername: 'localhost' });
    const arrived = once(service.server, 'request');
    await writing.write(
      `PATCH /namespaces/team-b HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITE_TOKEN}\r\nContent-Type: ` +
        `application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await arrived;

    const started = Date.now();
    const closing = service.close();
    await Promise.all([idle.closed, silentClosed]);
    await writing.write(body.slice(10));
    const written = await writing.next();
    expect(written.status).toBe(200);
    expect(written.headers.connection).toBe('close');
    expect(written.json().labels).toEqual({ over: 'tls' });
    await closing;
    expect(Date.now() - started).toBeLessThan(1500);
    service = undefined;
  });
});

describe('client certificates (TLS_CLIENT_CA_FILE)', () => {
  let mtls: TestService;
  beforeAll(async () => {
    const served = servedFolder(first);
    mtls = await startTestService({
      ...memoryStore(),
      TLS_CERT_FILE: served.cert,
      TLS_KEY_FILE: served.key,
      TLS_CLIENT_CA_FILE: clientCa.cert,
    });
  });
  afterAll(() => mtls?.close());

  it('serves a client that presents a certificate signed by the client CA', async () => {
    const answer = await get(mtls.url, '/api/v2/gitops/clusters', withToken(withClientCertificate(client)));
    expect(answer.status).toBe(200);
    expect(mtls.logs.find((line) => line.msg === 'gitops-config-api started')?.tls).toMatchObject({
      client_certificates: true,
    });
  });

  it('refuses in the handshake a client without a certificate, or with one of another CA', async () => {
    await expect(get(mtls.url, '/health')).rejects.toThrow();
    await expect(get(mtls.url, '/health', withClientCertificate(stranger))).rejects.toThrow();
    // No HTTP was read: nothing reached the request handler, and the refusal is logged.
    expect(mtls.logs.some((line) => line.msg === 'TLS handshake failed; connection closed' && line.level === 40)).toBe(
      true,
    );
    expect((await get(mtls.url, '/health', withClientCertificate(client))).status).toBe(200);
  });
});

describe('renewed certificates', () => {
  it(
    'serves a pair renamed into place to new connections without a restart, and keeps the old pair while a new one ' +
      'is broken',
    async () => {
      const served = servedFolder(first);
      service = await startTestService({ ...memoryStore(), TLS_CERT_FILE: served.cert, TLS_KEY_FILE: served.key });
      const tls = service.tls!;
      const kept = await RawConnection.openTls(service.url, { ca: trust, servername: 'localhost' });

      const reloaded = reloadedTo(tls, second.fingerprint256);
      replaceFile(served.cert, readFileSync(second.cert));
      replaceFile(served.key, readFileSync(second.key));
      expect((await reloaded).notAfter).toMatch(/^\d{4}-/);
      expect((await get(service.url, '/health')).fingerprint256).toBe(second.fingerprint256);
      // A connection made before the renewal goes on working.
      await kept.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect((await kept.next()).status).toBe(200);

      // A certificate caught half-written: refused, the pair before stays served. Put in place by a rename:
      // written in place right after the renames above, the edit can come before the watch has followed the
      // file to its new inode (then only the periodic look, a minute later, sees it).
      const refused = once(tls, 'refused', { signal: AbortSignal.timeout(5000) });
      const text = readFileSync(third.cert, 'utf8');
      replaceFile(served.cert, Buffer.from(text.slice(0, text.length / 2)));
      const [refusal] = (await refused) as [{ message: string }];
      expect(refusal.message).toMatch(/^TLS_CERT_FILE \(.*tls\.crt\) ends in an incomplete PEM certificate/);
      expect((await get(service.url, '/health')).fingerprint256).toBe(second.fingerprint256);
      expect(
        service.logs.some(
          (line) => line.msg === 'TLS files changed but cannot be served; the certificate served before stays',
        ),
      ).toBe(true);

      // The same for a key of another certificate; then the right key makes the pair whole.
      const mismatch = once(tls, 'refused', { signal: AbortSignal.timeout(5000) });
      replaceFile(served.cert, readFileSync(third.cert));
      expect(((await mismatch) as [{ message: string }])[0].message).toMatch(
        /TLS_KEY_FILE \(.*\) is not the key of the certificate in TLS_CERT_FILE/,
      );
      const whole = reloadedTo(tls, third.fingerprint256);
      replaceFile(served.key, readFileSync(third.key));
      await whole;
      expect((await get(service.url, '/health')).fingerprint256).toBe(third.fingerprint256);
    },
  );

  it('follows a Kubernetes Secret update: the ..data symlink swapped to a new folder', async () => {
    // The layout the kubelet makes for a mounted Secret: the files are links through ..data.
    const mount = tempDir('tls-secret-');
    const version = (name: string, files: CertificateFiles) => {
      mkdirSync(join(mount, name));
      writeFileSync(join(mount, name, 'tls.crt'), readFileSync(files.cert));
      writeFileSync(join(mount, name, 'tls.key'), readFileSync(files.key));
      writeFileSync(join(mount, name, 'ca.crt'), readFileSync(ca.cert));
    };
    version('..2025_01_01_00_00_00.000000001', first);
    symlinkSync('..2025_01_01_00_00_00.000000001', join(mount, '..data'));
    for (const file of ['tls.crt', 'tls.key', 'ca.crt']) symlinkSync(join('..data', file), join(mount, file));
    service = await startTestService({
      ...memoryStore(),
      TLS_CERT_FILE: join(mount, 'tls.crt'),
      TLS_KEY_FILE: join(mount, 'tls.key'),
    });
    expect((await get(service.url, '/health')).fingerprint256).toBe(first.fingerprint256);

    const reloaded = reloadedTo(service.tls!, second.fingerprint256);
    version('..2025_02_01_00_00_00.000000002', second);
    symlinkSync('..2025_02_01_00_00_00.000000002', join(mount, '..data_tmp'));
    renameSync(join(mount, '..data_tmp'), join(mount, '..data'));
    rmSync(join(mount, '..2025_01_01_00_00_00.000000001'), { recursive: true });
    await reloaded;
    expect((await get(service.url, '/health')).fingerprint256).toBe(second.fingerprint256);
  });
});
