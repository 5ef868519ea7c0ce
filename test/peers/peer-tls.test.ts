// Replicas over HTTPS with client certificates required (the kustomize tls and
// client-certificates components): a replica checks a peer's certificate against the client
// CAs and presents its own certificate, so the fleet view gathers the peer's polls; a peer
// whose certificate no trusted CA signed is missing, for tls.
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { tempDir } from '../helpers/git-fixture.ts';
import { freePorts } from '../helpers/replica-set.ts';
import { READ_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { type CertificateFiles, makeCa, makeSignedCertificate } from '../helpers/tls-certificates.ts';

const PEER_TOKEN = 'peer-token-over-tls-7a21';
const services: TestService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

function getJson(url: string, path: string, client: CertificateFiles, ca: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, url),
      {
        ca: readFileSync(ca),
        cert: readFileSync(client.cert),
        key: readFileSync(client.key),
        headers: { authorization: `Bearer ${READ_TOKEN}` },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += String(c)));
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('replicas over HTTPS with client certificates', () => {
  it(
    "gather each other's polls, each presenting its own " +
      'certificate; a peer signed by another CA is missing for tls',
    async () => {
      const dir = tempDir('peer-tls-');
      const ca = makeCa(dir, 'fleet-ca');
      const other = makeCa(dir, 'other-ca');
      const replica = makeSignedCertificate(dir, ca, 'replica', 'server and client');
      const stranger = makeSignedCertificate(dir, other, 'stranger', 'server and client');
      const [a, b, c] = await freePorts(3);
      const peers = [a, b, c].map((port) => `https://127.0.0.1:${port}`).join(',');
      const seed = asSeedFile();
      const start = async (port: number, cert: CertificateFiles) => {
        const service = await startTestService({
          STORE_BACKEND: 'memory',
          SEED_FILE: seed,
          LISTEN_ADDR: `127.0.0.1:${port}`,
          TLS_CERT_FILE: cert.cert,
          TLS_KEY_FILE: cert.key,
          TLS_CLIENT_CA_FILE: ca.cert,
          PEERS: peers,
          PEER_TOKEN,
        });
        services.push(service);
        return service;
      };
      const first = await start(a, replica);
      await start(b, replica);
      await start(c, stranger);
      const view = await getJson(first.url, '/api/v2/gitops/fleet', replica, ca.cert);
      expect(view.peers.answered.map((p: { url: string }) => p.url)).toEqual([`https://127.0.0.1:${b}`]);
      expect(view.peers.missing).toEqual([{ url: `https://127.0.0.1:${c}`, reason: 'tls' }]);
    },
  );
});
