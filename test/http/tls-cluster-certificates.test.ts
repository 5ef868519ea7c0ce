// Client certificates that name a cluster, on the real HTTPS server with certificates made by
// openssl: a certificate whose SAN DNS name (its CN when it has no SAN) is a cluster's
// cluster_dns limits the request to that cluster whatever token comes with it (the fleet
// tokens included), and alone is that cluster's credential; one that names no cluster leaves
// the token to decide, as before.
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { tempDir } from '../helpers/git-fixture.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from '../helpers/service.ts';
import { type CertificateFiles, makeCa, makeSignedCertificate } from '../helpers/tls-certificates.ts';

const dir = tempDir('tls-clusters-');
const ca = makeCa(dir, 'ca');
const server = makeSignedCertificate(dir, ca, 'server', 'server');
const clientCa = makeCa(dir, 'client-ca');
// The fixture's clusters: c1 (c1.k8s.example.com) and c0 (Bare.Example.COM).
const namingA = makeSignedCertificate(dir, clientCa, 'cluster-a', 'client', 'ec', { dnsNames: ['C1.k8s.example.com'] });
const namingBByCn = makeSignedCertificate(dir, clientCa, 'cluster-b', 'client', 'ec', {
  commonName: 'bare.example.com',
});
// A SAN that names no cluster wins over a CN that does: the CN is read only without a SAN.
const sanOverCn = makeSignedCertificate(dir, clientCa, 'san-over-cn', 'client', 'ec', {
  dnsNames: ['agent.example.net'],
  commonName: 'c1.k8s.example.com',
});
const namingNone = makeSignedCertificate(dir, clientCa, 'ci-runner', 'client');
const trust = readFileSync(ca.cert);

const KEY = 'tls-cluster-token-key-0123456789abcdefgh';
const tokenOf = (id: string) => signClusterToken(Buffer.from(KEY), id, 0);
const PREFIX = '/api/v2/gitops';
const A_PC = `${PREFIX}/clusters/c1.k8s.example.com/platform-components`;
const B_PC = `${PREFIX}/clusters/Bare.Example.COM/platform-components`;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): any;
}

function call(
  url: string,
  path: string,
  certificate: CertificateFiles,
  token?: string,
  options: RequestOptions = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(options.headers as Record<string, string> | undefined),
    };
    const req = httpsRequest(
      new URL(path, url),
      {
        ca: trust,
        agent: false,
        cert: readFileSync(certificate.cert),
        key: readFileSync(certificate.key),
        ...options,
        headers,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += String(chunk)));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    STORE_BACKEND: 'memory',
    SEED_FILE: asSeedFile(),
    API_MODE: 'crud',
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
    CLUSTER_TOKEN_KEYS: KEY,
    TLS_CERT_FILE: server.cert,
    TLS_KEY_FILE: server.key,
    TLS_CLIENT_CA_FILE: clientCa.cert,
  });
});
afterAll(() => service?.close());

describe('a client certificate naming a cluster', () => {
  it('with the fleet read token: only that cluster is readable, everything else 403', async () => {
    expect((await call(service.url, A_PC, namingA, READ_TOKEN)).status).toBe(200);
    expect(
      (await call(service.url, `${PREFIX}/clusters/c1.k8s.example.com/namespaces`, namingA, READ_TOKEN)).status,
    ).toBe(200);
    for (const path of [B_PC, `${PREFIX}/clusters`, `${PREFIX}/fleet`, '/clusters', '/clusters/c1']) {
      const res = await call(service.url, path, namingA, READ_TOKEN);
      expect(res.status, path).toBe(403);
      expect(res.json().message, path).toContain('this client certificate reads only cluster "c1"\'s three endpoints');
    }
    // The same token without that certificate reads everything.
    expect((await call(service.url, B_PC, namingNone, READ_TOKEN)).status).toBe(200);
    expect((await call(service.url, `${PREFIX}/clusters`, namingNone, READ_TOKEN)).status).toBe(200);
  });

  it('with the write token: no REST, read or write', async () => {
    expect((await call(service.url, '/namespaces/team-b', namingA, WRITE_TOKEN)).status).toBe(403);
    const patch = await call(service.url, '/namespaces/team-b', namingA, WRITE_TOKEN, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
    });
    expect(patch.status).toBe(403);
    expect((await call(service.url, A_PC, namingA, WRITE_TOKEN)).status).toBe(200);
  });

  it("alone, without a token, is the cluster's credential", async () => {
    expect((await call(service.url, A_PC, namingA)).status).toBe(200);
    expect((await call(service.url, B_PC, namingA)).status).toBe(403);
    const whoami = await call(service.url, `${PREFIX}/whoami`, namingA);
    expect(whoami.json()).toEqual({ kind: 'cluster', name: 'c1', email: null, roles: ['read'], clusters: ['c1'] });
    // By its CN when it has no SAN, the name compared without regard to ASCII case.
    expect((await call(service.url, B_PC, namingBByCn)).status).toBe(200);
    expect((await call(service.url, A_PC, namingBByCn)).status).toBe(403);
  });

  it("with a cluster token: the token's cluster and the certificate's must agree", async () => {
    expect((await call(service.url, A_PC, namingA, tokenOf('c1'))).status).toBe(200);
    const crossed = await call(service.url, A_PC, namingA, tokenOf('c0'));
    expect(crossed.status).toBe(403);
    expect(crossed.json().message).toContain('may read nothing');
    expect((await call(service.url, B_PC, namingA, tokenOf('c0'))).status).toBe(403);
    expect((await call(service.url, `${PREFIX}/whoami`, namingA, tokenOf('c0'))).json()).toMatchObject({
      kind: 'cluster',
      name: 'c0',
      clusters: [],
    });
  });

  it('with an invalid token: 401, the certificate does not make a wrong token right', async () => {
    const res = await call(service.url, A_PC, namingA, 'wrong-token');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('Bearer');
  });
});

describe('a client certificate naming no cluster', () => {
  it('leaves the token to decide, as before: 401 without one', async () => {
    expect((await call(service.url, A_PC, namingNone)).status).toBe(401);
    expect((await call(service.url, A_PC, namingNone, tokenOf('c1'))).status).toBe(200);
    expect((await call(service.url, B_PC, namingNone, tokenOf('c1'))).status).toBe(403);
    expect((await call(service.url, `${PREFIX}/whoami`, namingNone, READ_TOKEN)).json()).toEqual({
      kind: 'service',
      name: 'read-token',
      email: null,
      roles: ['read'],
      clusters: null,
    });
    // A SAN naming no cluster: its CN is not looked at.
    expect((await call(service.url, A_PC, sanOverCn)).status).toBe(401);
    expect((await call(service.url, B_PC, sanOverCn, READ_TOKEN)).status).toBe(200);
  });
});
