// The probe of the image's HEALTHCHECK and of exec probes (src/health-probe.ts) reaches the
// service over the transport it serves: plain HTTP, HTTPS, HTTPS with client certificates.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { asSeedFile } from './helpers/fixture-data.ts';
import { tempDir } from './helpers/git-fixture.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { makeCa, makeSignedCertificate } from './helpers/tls-certificates.ts';

const PROBE = join(import.meta.dirname, '..', 'src', 'health-probe.ts');
const run = promisify(execFile);

/** The probe's exit code and stderr, run with the service's settings (as in its container). */
async function probe(env: Record<string, string>, path?: string): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [PROBE, ...(path ? [path] : [])], {
      env: { PATH: process.env.PATH, ...env },
      timeout: 10_000,
    });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

const dir = tempDir('probe-');
const ca = makeCa(dir, 'ca');
// Its own certificate is what the probe presents when the service asks for one.
const server = makeSignedCertificate(dir, ca, 'server', 'server and client');

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('health probe', () => {
  it.each([
    ['plain HTTP', {}],
    ['HTTPS', { TLS_CERT_FILE: server.cert, TLS_KEY_FILE: server.key }],
    [
      'HTTPS with client certificates',
      { TLS_CERT_FILE: server.cert, TLS_KEY_FILE: server.key, TLS_CLIENT_CA_FILE: ca.cert },
    ],
  ])('answers 0 for a service on %s, on /health and /ready', async (_name, tls: Record<string, string>) => {
    service = await startTestService({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile(), ...tls });
    const env = { LISTEN_ADDR: `0.0.0.0:${service.port}`, ...tls };
    expect(await probe(env)).toEqual({ code: 0, stderr: '' });
    expect(await probe(env, '/ready')).toEqual({ code: 0, stderr: '' });
    expect(await probe(env, '/no-such-path')).toMatchObject({
      code: 1,
      stderr: 'health probe: /no-such-path answered 404\n',
    });
  });

  it('answers 1 when nothing listens', async () => {
    const result = await probe({ LISTEN_ADDR: '127.0.0.1:1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^health probe: \/health: .*ECONNREFUSED/);
  });
});
