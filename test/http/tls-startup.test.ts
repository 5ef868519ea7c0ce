// TLS settings that cannot be served stop the start with one line naming the variable: half a
// pair, a file that cannot be read or parsed, a key of another certificate, a client CA
// without HTTPS.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { TlsFileError } from '../../src/http/transport/tls-files.ts';
import { asSeedFile } from '../helpers/fixture-data.ts';
import { tempDir } from '../helpers/git-fixture.ts';
import { baseEnv, MAIN } from '../helpers/process.ts';
import { READ_TOKEN, startTestService } from '../helpers/service.ts';
import { makeCa, makeSignedCertificate } from '../helpers/tls-certificates.ts';

const dir = tempDir('tls-startup-');
const ca = makeCa(dir, 'ca');
const server = makeSignedCertificate(dir, ca, 'server', 'server');
const other = makeSignedCertificate(dir, ca, 'other', 'server');
const garbage = join(dir, 'garbage.pem');
writeFileSync(garbage, 'not a certificate\n');
const halfCert = join(dir, 'half.crt');
writeFileSync(halfCert, '-----BEGIN CERTIFICATE-----\nMIIB\n');

describe('TLS settings', () => {
  it.each([
    ['a certificate without a key', { TLS_CERT_FILE: server.cert }, /^TLS_CERT_FILE is set without TLS_KEY_FILE/],
    ['a key without a certificate', { TLS_KEY_FILE: server.key }, /^TLS_KEY_FILE is set without TLS_CERT_FILE/],
    [
      'a client CA without HTTPS',
      { TLS_CLIENT_CA_FILE: ca.cert },
      /^TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE/,
    ],
  ])('%s is refused by the configuration', (_name, env, expected) => {
    expect(() => loadConfig({ AUTH_TOKEN: READ_TOKEN, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTH_TOKEN: READ_TOKEN, ...env })).toThrow(expected);
  });

  it('empty values count as unset: plain HTTP', () => {
    expect(loadConfig({ AUTH_TOKEN: READ_TOKEN, TLS_CERT_FILE: '', TLS_KEY_FILE: '' }).tls).toBeUndefined();
  });

  const missing = join(dir, 'missing.pem');
  it.each([
    [
      'an unreadable certificate',
      { TLS_CERT_FILE: missing, TLS_KEY_FILE: server.key },
      `TLS_CERT_FILE: cannot read ${missing}: ENOENT`,
    ],
    [
      'an unreadable key',
      { TLS_CERT_FILE: server.cert, TLS_KEY_FILE: missing },
      `TLS_KEY_FILE: cannot read ${missing}: ENOENT`,
    ],
    [
      'an unreadable client CA',
      { TLS_CERT_FILE: server.cert, TLS_KEY_FILE: server.key, TLS_CLIENT_CA_FILE: missing },
      `TLS_CLIENT_CA_FILE: cannot read ${missing}: ENOENT`,
    ],
    [
      'a certificate file that holds none',
      { TLS_CERT_FILE: garbage, TLS_KEY_FILE: server.key },
      `TLS_CERT_FILE (${garbage}) holds no PEM certificate`,
    ],
    [
      'a half-written certificate',
      { TLS_CERT_FILE: halfCert, TLS_KEY_FILE: server.key },
      `TLS_CERT_FILE (${halfCert}) ends in an incomplete PEM certificate`,
    ],
    [
      'a key file that holds none',
      { TLS_CERT_FILE: server.cert, TLS_KEY_FILE: garbage },
      `TLS_KEY_FILE (${garbage}) is not a readable unencrypted PEM private key`,
    ],
    [
      'the key of another certificate',
      { TLS_CERT_FILE: server.cert, TLS_KEY_FILE: other.key },
      `TLS_KEY_FILE (${other.key}) is not the key of the certificate in TLS_CERT_FILE (${server.cert})`,
    ],
    [
      'a client CA file that holds none',
      { TLS_CERT_FILE: server.cert, TLS_KEY_FILE: server.key, TLS_CLIENT_CA_FILE: garbage },
      `TLS_CLIENT_CA_FILE (${garbage}) holds no PEM certificate`,
    ],
  ])('%s stops the start naming the variable', async (_name, env, expected) => {
    const started = startTestService({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile(), ...env });
    await expect(started).rejects.toThrow(TlsFileError);
    await expect(started).rejects.toThrow(expected);
  });

  it('the real process prints one line and exits 2', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: {
        ...baseEnv(),
        AUTH_TOKEN: 't',
        LISTEN_ADDR: '127.0.0.1:0',
        STORE_BACKEND: 'memory',
        SEED_FILE: asSeedFile(),
        TLS_CERT_FILE: server.cert,
        TLS_KEY_FILE: other.key,
      },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `gitops-config-api: TLS_KEY_FILE (${other.key}) is not the key of the certificate in TLS_CERT_FILE ` +
        `(${server.cert})\n`,
    );
  });
});
