import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDuration, parseListenAddress, tokenWarnings } from '../src/config.ts';
import {
  defaultMaxConnections,
  MAX_CONNECTIONS_CAP,
  MAX_CONNECTIONS_FALLBACK,
  openFileLimit,
} from '../src/http/transport/http-limits.ts';
import { tempDir } from './helpers/temp-files.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ AUTH_TOKEN: 't' });
    expect(config).toMatchObject({
      apiMode: 'read-only',
      backend: 'git',
      databaseUrl: 'sqlite://data/config.db?mode=rwc',
      crudAuthToken: 't',
      seedFile: 'data/seed.json',
      openapiFile: 'openapi/openapi.yaml',
      listen: { host: '0.0.0.0', port: 8080 },
      logLevel: 'info',
      configRepo: 'config-repo-example',
      configBranch: undefined,
      cloneDir: 'data/config-repo',
      syncIntervalMs: 30_000,
      gitAuthorName: 'gitops-config-api',
      gitAuthorEmail: 'gitops-config-api@localhost',
      webhookSecret: undefined,
      maxBodyBytes: 1024 * 1024,
    });
  });

  it('has the documented HTTP limits, the connection limit taken from the open-file limit', () => {
    expect(loadConfig({ AUTH_TOKEN: 't' }).http).toEqual({
      maxConnections: defaultMaxConnections(openFileLimit()),
      headerTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      tlsHandshakeTimeoutMs: 10_000,
    });
    const env = {
      AUTH_TOKEN: 't',
      HTTP_MAX_CONNECTIONS: '500',
      HTTP_HEADER_TIMEOUT: '5s',
      HTTP_REQUEST_TIMEOUT: '1m',
      HTTP_KEEPALIVE_TIMEOUT: '5',
      TLS_HANDSHAKE_TIMEOUT: '2500ms',
    };
    expect(loadConfig(env).http).toEqual({
      maxConnections: 500,
      headerTimeoutMs: 5000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5000,
      tlsHandshakeTimeoutMs: 2500,
    });
  });

  it('refuses HTTP limits that are not numbers or durations, and a header timeout past the request timeout', () => {
    for (const bad of ['0', '-1', '1.5', 'many', '10000000000']) {
      expect(() => loadConfig({ AUTH_TOKEN: 't', HTTP_MAX_CONNECTIONS: bad }), bad).toThrow(
        `HTTP_MAX_CONNECTIONS=${bad} is not valid; use a whole number of at least 1`,
      );
    }
    for (const name of [
      'HTTP_HEADER_TIMEOUT',
      'HTTP_REQUEST_TIMEOUT',
      'HTTP_KEEPALIVE_TIMEOUT',
      'TLS_HANDSHAKE_TIMEOUT',
    ]) {
      expect(() => loadConfig({ AUTH_TOKEN: 't', [name]: 'soon' })).toThrow(`${name}=soon is not a duration`);
    }
    expect(() => loadConfig({ AUTH_TOKEN: 't', HTTP_HEADER_TIMEOUT: '1m' })).toThrow(
      'HTTP_HEADER_TIMEOUT (60000 ms) is longer than HTTP_REQUEST_TIMEOUT (30000 ms); the headers are part of the ' +
        'request',
    );
  });

  it('leaves a quarter of the open-file limit, and at least 64 descriptors, to the store', () => {
    expect(defaultMaxConnections(1024)).toBe(768);
    expect(defaultMaxConnections(20_000)).toBe(15_000);
    expect(defaultMaxConnections(128)).toBe(64);
    expect(defaultMaxConnections(200)).toBe(136);
    expect(defaultMaxConnections(1_048_576)).toBe(MAX_CONNECTIONS_CAP);
    expect(defaultMaxConnections(50)).toBe(1);
    expect(defaultMaxConnections(undefined)).toBe(MAX_CONNECTIONS_FALLBACK);
    const limits = (soft: string) => () =>
      `Limit                     Soft Limit           Hard Limit           Units     \nMax processes             ` +
      `63704                63704                processes \nMax open files            ${soft}                 ` +
      `524288               files     \n`;
    expect(openFileLimit(limits('1024'))).toBe(1024);
    expect(openFileLimit(limits('unlimited'))).toBeUndefined();
    expect(
      openFileLimit(() => {
        throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
      }),
    ).toBeUndefined();
  });

  it('parses listen addresses', () => {
    expect(parseListenAddress('127.0.0.1:9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(parseListenAddress('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseListenAddress(':8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(() => parseListenAddress('8080')).toThrow(ConfigError);
  });

  it('parses durations', () => {
    expect(parseDuration('X', '500ms')).toBe(500);
    expect(parseDuration('X', '30s')).toBe(30_000);
    expect(parseDuration('X', '5m')).toBe(300_000);
    expect(parseDuration('X', '1h')).toBe(3_600_000);
    expect(parseDuration('X', '45')).toBe(45_000);
    expect(() => parseDuration('X', '0s')).toThrow(ConfigError);
  });

  it('parses Go-style compound durations and refuses what Go would not write', () => {
    expect(parseDuration('X', '1h30m')).toBe(5_400_000);
    expect(parseDuration('X', '2m30s')).toBe(150_000);
    expect(parseDuration('X', '1.5h')).toBe(5_400_000);
    expect(parseDuration('X', '1m500ms')).toBe(60_500);
    expect(parseDuration('X', ' 10m ')).toBe(600_000);
    for (const bad of ['1 hour', '1h 30m', '-1m', '1d', 'm', '1.5.2s', '', '30sec']) {
      expect(() => parseDuration('CONFIG_SYNC_INTERVAL', bad), bad).toThrow(
        /CONFIG_SYNC_INTERVAL=.* is not a duration/,
      );
    }
    expect(() => parseDuration('X', '100us')).toThrow(/at least 1ms/);
  });

  it('takes WRITE_TIMEOUT as a duration, 10 s by default', () => {
    expect(loadConfig({ AUTH_TOKEN: 't' }).writeTimeoutMs).toBe(10_000);
    expect(loadConfig({ AUTH_TOKEN: 't', WRITE_TIMEOUT: '1m30s' }).writeTimeoutMs).toBe(90_000);
    expect(loadConfig({ AUTH_TOKEN: 't', WRITE_TIMEOUT: '2' }).writeTimeoutMs).toBe(2000);
    expect(() => loadConfig({ AUTH_TOKEN: 't', WRITE_TIMEOUT: '10 seconds' })).toThrow(
      /WRITE_TIMEOUT=10 seconds is not a duration/,
    );
    expect(() => loadConfig({ AUTH_TOKEN: 't', WRITE_TIMEOUT: '0s' })).toThrow(/WRITE_TIMEOUT=0s must be at least 1ms/);
  });

  it('takes the log level from LOG_LEVEL, else a plain RUST_LOG level', () => {
    expect(loadConfig({ AUTH_TOKEN: 't', RUST_LOG: 'debug' }).logLevel).toBe('debug');
    expect(loadConfig({ AUTH_TOKEN: 't', RUST_LOG: 'my_crate=debug' }).logLevel).toBe('info');
    expect(loadConfig({ AUTH_TOKEN: 't', RUST_LOG: 'debug', LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(() => loadConfig({ AUTH_TOKEN: 't', LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL=loud/);
  });

  it('keeps metrics and the fleet registry on unless METRICS=off', () => {
    expect(loadConfig({ AUTH_TOKEN: 't' }).metrics).toBe(true);
    expect(loadConfig({ AUTH_TOKEN: 't', METRICS: 'on' }).metrics).toBe(true);
    expect(loadConfig({ AUTH_TOKEN: 't', METRICS: 'off' }).metrics).toBe(false);
    expect(() => loadConfig({ AUTH_TOKEN: 't', METRICS: 'false' })).toThrow(
      'METRICS=false is not valid; use one of: on, off',
    );
  });

  it('checks the Git credentials fit together', () => {
    expect(() => loadConfig({ AUTH_TOKEN: 't', GIT_USERNAME: 'u' })).toThrow(
      /GIT_USERNAME needs GIT_PASSWORD or GIT_TOKEN/,
    );
    expect(() => loadConfig({ AUTH_TOKEN: 't', GIT_PASSWORD: 'p' })).toThrow(/GIT_PASSWORD needs GIT_USERNAME/);
    expect(() => loadConfig({ AUTH_TOKEN: 't', GIT_USERNAME: 'u', GIT_PASSWORD: 'p', GIT_TOKEN: 'x' })).toThrow(
      /both set/,
    );
    expect(loadConfig({ AUTH_TOKEN: 't', GIT_USERNAME: 'bot', GIT_TOKEN: 'x' })).toMatchObject({
      gitUsername: 'bot',
      gitToken: 'x',
    });
  });
});

describe('tokens', () => {
  const secretFile = (text: string): string => {
    const file = join(tempDir('token-'), 'token');
    writeFileSync(file, text);
    return file;
  };

  it.each([
    ['a leading space', ' read-token'],
    ['a trailing space', 'read-token '],
    ['a trailing newline', 'read-token\n'],
    ['a tab inside', 'read\ttoken'],
    ['a NUL inside', 'read\u0000token'],
    ['a DEL inside', 'read\u007ftoken'],
    ['a C1 control character', 'read\u0085token'],
    ['a no-break space around it', '\u00a0read-token'],
  ])('refuses %s, naming the variable and never the value', (_name, value) => {
    for (const name of ['AUTH_TOKEN', 'CRUD_AUTH_TOKEN']) {
      const env = { AUTH_TOKEN: 'read-token', API_MODE: 'crud', [name]: value };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        new RegExp(`^${name}: the token (has whitespace|contains a control character)`),
      );
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as Error).message).not.toContain('read');
      }
    }
  });

  it('takes a token file with one trailing newline, and refuses one with other whitespace', () => {
    expect(loadConfig({ AUTH_TOKEN_FILE: secretFile('from-file\n') }).authToken).toBe('from-file');
    expect(loadConfig({ AUTH_TOKEN_FILE: secretFile('from-file\r\n') }).authToken).toBe('from-file');
    expect(loadConfig({ AUTH_TOKEN: 'r', CRUD_AUTH_TOKEN_FILE: secretFile('write\n') }).crudAuthToken).toBe('write');
    for (const text of ['from-file\n\n', ' from-file\n', 'from-file \n', 'from\tfile']) {
      const file = secretFile(text);
      expect(() => loadConfig({ AUTH_TOKEN_FILE: file }), JSON.stringify(text)).toThrow(
        `AUTH_TOKEN_FILE (${file}): the token`,
      );
      expect(() => loadConfig({ AUTH_TOKEN: 'r', CRUD_AUTH_TOKEN_FILE: file }), JSON.stringify(text)).toThrow(
        `CRUD_AUTH_TOKEN_FILE (${file}): the token`,
      );
    }
  });

  it('counts an empty value as unset', () => {
    expect(() => loadConfig({ AUTH_TOKEN: '' })).toThrow(/AUTH_TOKEN is required/);
    expect(() => loadConfig({ AUTH_TOKEN_FILE: secretFile('') })).toThrow(/AUTH_TOKEN is required/);
    expect(() => loadConfig({ AUTH_TOKEN_FILE: secretFile('\n') })).toThrow(/AUTH_TOKEN is required/);
    expect(loadConfig({ AUTH_TOKEN: 'r', CRUD_AUTH_TOKEN: '' }).crudAuthToken).toBe('r');
    expect(loadConfig({ AUTH_TOKEN: 'r', CRUD_AUTH_TOKEN_FILE: secretFile('') }).crudAuthToken).toBe('r');
    // An empty AUTH_TOKEN beside AUTH_TOKEN_FILE is not "both set".
    expect(loadConfig({ AUTH_TOKEN: '', AUTH_TOKEN_FILE: secretFile('f\n') }).authToken).toBe('f');
  });

  it.each([
    ['spaces inside', 'a b c d'],
    ['a letter outside ASCII', 'read-tokén'],
    ['a character outside ASCII that looks like one inside', 'read-\u212aey'],
    ['a quote', 'read"token'],
    ['a comma', 'read,token'],
    ['= before the end', 'read=token'],
    ['only padding', '=='],
    ['a backslash', 'read\\token'],
  ])('refuses a token with %s (not a Bearer token), naming the variable and never the value', (_name, value) => {
    for (const name of ['AUTH_TOKEN', 'CRUD_AUTH_TOKEN']) {
      const env = { AUTH_TOKEN: 'read-token', API_MODE: 'crud', [name]: value };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        new RegExp(`^${name}: the token has a character a Bearer token cannot carry`),
      );
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as Error).message).not.toContain(value);
      }
    }
    const file = secretFile(`${value}\n`);
    expect(() => loadConfig({ AUTH_TOKEN_FILE: file })).toThrow(
      `AUTH_TOKEN_FILE (${file}): the token has a character a Bearer token cannot carry`,
    );
  });

  it('warns about tokens shorter than 16 characters, and about crud mode without a write token of its own', () => {
    const long = 'a-token-of-20-chars-';
    expect(tokenWarnings(loadConfig({ AUTH_TOKEN: long }))).toEqual([]);
    expect(tokenWarnings(loadConfig({ AUTH_TOKEN: '0123456789abcdef' }))).toEqual([]);
    expect(tokenWarnings(loadConfig({ AUTH_TOKEN: '0123456789abcde' }))).toEqual([
      expect.stringMatching(/^AUTH_TOKEN is shorter than 16 characters/),
    ]);
    // A short write token counts only where it is used: in crud mode.
    expect(tokenWarnings(loadConfig({ AUTH_TOKEN: long, CRUD_AUTH_TOKEN: 'w' }))).toEqual([]);
    expect(tokenWarnings(loadConfig({ AUTH_TOKEN: long, CRUD_AUTH_TOKEN: 'w', API_MODE: 'crud' }))).toEqual([
      expect.stringMatching(/^CRUD_AUTH_TOKEN is shorter than 16 characters/),
    ]);
    expect(tokenWarnings(loadConfig({ AUTH_TOKEN: long, API_MODE: 'crud' }))).toEqual([
      expect.stringMatching(/without a distinct CRUD_AUTH_TOKEN/),
    ]);
  });

  it(
    'reads CLUSTER_TOKEN_KEYS as a comma-separated list, ' +
      'refuses a broken one at start, and warns about short keys',
    () => {
      const long = 'a-token-of-20-chars-';
      const key = 'k'.repeat(32);
      expect(loadConfig({ AUTH_TOKEN: long }).clusterTokenKeys).toEqual([]);
      expect(
        loadConfig({ AUTH_TOKEN: long, CLUSTER_TOKEN_KEYS: `${key},old key with spaces inside` }).clusterTokenKeys,
      ).toEqual([key, 'old key with spaces inside']);
      for (const [value, message] of [
        [`${key},,x`, /key 2 is empty/],
        [` ${key}`, /key 1 has whitespace/],
        [`${key}\n,x`, /key 1 has whitespace at its ends or a control character/],
      ] as const) {
        expect(() => loadConfig({ AUTH_TOKEN: long, CLUSTER_TOKEN_KEYS: value }), value).toThrow(ConfigError);
        expect(() => loadConfig({ AUTH_TOKEN: long, CLUSTER_TOKEN_KEYS: value }), value).toThrow(message);
      }
      expect(tokenWarnings(loadConfig({ AUTH_TOKEN: long, CLUSTER_TOKEN_KEYS: key }))).toEqual([]);
      expect(tokenWarnings(loadConfig({ AUTH_TOKEN: long, CLUSTER_TOKEN_KEYS: `${key},short` }))).toEqual([
        expect.stringMatching(/^CLUSTER_TOKEN_KEYS: key 2 is shorter than 32 characters/),
      ]);
    },
  );

  it('keeps tokens with inner characters a bearer token may hold', () => {
    const token = 'aZ09-._~+/=';
    expect(loadConfig({ AUTH_TOKEN: token, CRUD_AUTH_TOKEN: `w${token}` })).toMatchObject({
      authToken: token,
      crudAuthToken: `w${token}`,
    });
  });
});

describe('PEERS and PEER_TOKEN', () => {
  it('are off by default, and a PEER_TOKEN alone changes nothing', () => {
    expect(loadConfig({ AUTH_TOKEN: 't' }).peers).toBeUndefined();
    expect(loadConfig({ AUTH_TOKEN: 't', PEER_TOKEN: 'a-peer-token-of-20c' }).peers).toBeUndefined();
  });

  it('take a DNS name or a list of URLs, with a token of their own, from the environment or a file', () => {
    expect(loadConfig({ AUTH_TOKEN: 't', PEERS: 'gitops-config-api-peers', PEER_TOKEN: 'p' }).peers).toEqual({
      source: { kind: 'dns', name: 'gitops-config-api-peers' },
      token: 'p',
    });
    const file = join(tempDir('peer-token-'), 'token');
    writeFileSync(file, 'from-a-file\n');
    expect(
      loadConfig({ AUTH_TOKEN: 't', PEERS: 'http://10.0.0.1:8080,http://10.0.0.2:8080', PEER_TOKEN_FILE: file }).peers,
    ).toEqual({
      source: { kind: 'urls', urls: ['http://10.0.0.1:8080', 'http://10.0.0.2:8080'] },
      token: 'from-a-file',
    });
  });

  it(
    'refuse PEERS without a token, a token that is the read or write token, a token no Bearer header can carry, and ' +
      'a PEERS that is neither form',
    () => {
      expect(() => loadConfig({ AUTH_TOKEN: 't', PEERS: 'peers' })).toThrow(
        'PEERS needs PEER_TOKEN (or PEER_TOKEN_FILE)',
      );
      expect(() => loadConfig({ AUTH_TOKEN: 't', PEERS: 'peers', PEER_TOKEN: 't' })).toThrow(
        'PEER_TOKEN must differ from AUTH_TOKEN and CRUD_AUTH_TOKEN',
      );
      expect(() => loadConfig({ AUTH_TOKEN: 't', CRUD_AUTH_TOKEN: 'w', PEERS: 'peers', PEER_TOKEN: 'w' })).toThrow(
        'PEER_TOKEN must differ',
      );
      expect(() => loadConfig({ AUTH_TOKEN: 't', PEERS: 'peers', PEER_TOKEN: 'has space' })).toThrow(
        /^PEER_TOKEN: the token has a character a Bearer token cannot carry/,
      );
      expect(() => loadConfig({ AUTH_TOKEN: 't', PEERS: 'peers one', PEER_TOKEN: 'p' })).toThrow(
        /^PEERS: "peers one" is neither a DNS name/,
      );
      expect(() => loadConfig({ AUTH_TOKEN: 't', PEERS: 'http://10.0.0.1:8080/x', PEER_TOKEN: 'p' })).toThrow(
        ConfigError,
      );
    },
  );

  it('warn about a short PEER_TOKEN', () => {
    const long = 'a-token-of-20-chars-';
    expect(tokenWarnings(loadConfig({ AUTH_TOKEN: long, PEERS: 'peers', PEER_TOKEN: 'short' }))).toEqual([
      expect.stringMatching(/^PEER_TOKEN is shorter than 16 characters/),
    ]);
  });
});

describe('people signing in with OIDC', () => {
  const base = { AUTH_TOKEN: 't', OIDC_AUDIENCE: 'gitops-config-api' };

  it('is off without OIDC_ISSUER_URL', () => {
    expect(loadConfig({ AUTH_TOKEN: 't' }).oidc).toBeUndefined();
  });

  it('has the documented defaults, and lists read comma-separated', () => {
    expect(loadConfig({ ...base, OIDC_ISSUER_URL: 'https://dex.example.com' }).oidc).toEqual({
      issuerUrl: 'https://dex.example.com',
      audiences: ['gitops-config-api'],
      groupsClaim: 'groups',
      readGroups: [],
      writeGroups: [],
      jwksCooldownMs: 30_000,
    });
    const env = {
      ...base,
      OIDC_ISSUER_URL: 'https://keycloak.example.com/realms/platform',
      OIDC_AUDIENCE: 'app-a, app-b',
      OIDC_GROUPS_CLAIM: 'https://example.com/groups',
      OIDC_READ_GROUPS: 'developers, ,platform-admins',
      OIDC_WRITE_GROUPS: 'platform-admins',
      OIDC_JWKS_COOLDOWN: '1m',
    };
    expect(loadConfig(env).oidc).toEqual({
      issuerUrl: 'https://keycloak.example.com/realms/platform',
      audiences: ['app-a', 'app-b'],
      groupsClaim: 'https://example.com/groups',
      readGroups: ['developers', 'platform-admins'],
      writeGroups: ['platform-admins'],
      jwksCooldownMs: 60_000,
    });
  });

  it('takes https issuers anywhere and http ones only on loopback', () => {
    for (const url of [
      'http://127.0.0.1:5556/dex',
      'http://localhost:8080/realms/dev',
      'http://[::1]:5556',
      'https://dex.example.com',
    ]) {
      expect(loadConfig({ ...base, OIDC_ISSUER_URL: url }).oidc?.issuerUrl, url).toBe(url);
    }
    for (const url of [
      'http://dex.example.com',
      'http://10.0.0.5:5556',
      'http://127.0.0.1.example.com',
      'ftp://dex.example.com',
    ]) {
      expect(() => loadConfig({ ...base, OIDC_ISSUER_URL: url }), url).toThrow(
        `OIDC_ISSUER_URL=${url} is not an https:// URL`,
      );
    }
    expect(() => loadConfig({ ...base, OIDC_ISSUER_URL: 'dex.example.com' })).toThrow(
      /OIDC_ISSUER_URL=dex.example.com is not a URL/,
    );
    expect(() => loadConfig({ ...base, OIDC_ISSUER_URL: 'https://u:p@dex.example.com' })).toThrow(
      /must not carry a user name or password/,
    );
    expect(() => loadConfig({ ...base, OIDC_ISSUER_URL: 'https://dex.example.com/?x=1' })).toThrow(
      /has a query or a fragment/,
    );
  });

  it('requires OIDC_AUDIENCE with the issuer', () => {
    expect(() => loadConfig({ AUTH_TOKEN: 't', OIDC_ISSUER_URL: 'https://dex.example.com' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ AUTH_TOKEN: 't', OIDC_ISSUER_URL: 'https://dex.example.com', OIDC_AUDIENCE: ' , ' }),
    ).toThrow(/^OIDC_AUDIENCE is required with OIDC_ISSUER_URL/);
  });

  it('refuses other OIDC settings without the issuer, naming them', () => {
    expect(() => loadConfig({ AUTH_TOKEN: 't', OIDC_WRITE_GROUPS: 'admins', OIDC_AUDIENCE: 'x' })).toThrow(
      'OIDC_AUDIENCE, OIDC_WRITE_GROUPS are set without OIDC_ISSUER_URL; set the issuer too, or unset them',
    );
  });

  it(
    "takes the web UI's OIDC client (OIDC_UI_CLIENT_ID) only when it is one of the audiences, with openid among its " +
      'scopes',
    () => {
      const oidc = { ...base, OIDC_ISSUER_URL: 'https://dex.example.com', OIDC_AUDIENCE: 'gitops-config-api,kubectl' };
      expect(loadConfig(oidc).oidc?.ui).toBeUndefined();
      expect(loadConfig({ ...oidc, OIDC_UI_CLIENT_ID: 'gitops-config-api' }).oidc?.ui).toEqual({
        clientId: 'gitops-config-api',
        scopes: ['openid', 'profile', 'email'],
      });
      expect(
        loadConfig({ ...oidc, OIDC_UI_CLIENT_ID: 'gitops-config-api', OIDC_UI_SCOPES: 'profile groups' }).oidc?.ui
          ?.scopes,
      ).toEqual(['openid', 'profile', 'groups']);
      expect(() => loadConfig({ ...oidc, OIDC_UI_CLIENT_ID: 'gitops-ui' })).toThrow(
        'OIDC_UI_CLIENT_ID=gitops-ui is not among OIDC_AUDIENCE ' +
          '(gitops-config-api, kubectl): the web UI sends the ID ' +
          'token the issuer makes for this client, whose aud is the client id; add it to OIDC_AUDIENCE',
      );
      expect(() => loadConfig({ ...oidc, OIDC_UI_SCOPES: 'openid' })).toThrow(
        'OIDC_UI_SCOPES is set without OIDC_UI_CLIENT_ID',
      );
      expect(() => loadConfig({ AUTH_TOKEN: 't', OIDC_UI_CLIENT_ID: 'gitops-config-api' })).toThrow(
        'OIDC_UI_CLIENT_ID is set without OIDC_ISSUER_URL',
      );
    },
  );

  it('refuses a cooldown that is not a duration', () => {
    expect(() =>
      loadConfig({ ...base, OIDC_ISSUER_URL: 'https://dex.example.com', OIDC_JWKS_COOLDOWN: 'soon' }),
    ).toThrow('OIDC_JWKS_COOLDOWN=soon is not a duration');
  });
});

describe('the rollout settings', () => {
  it('takes ROLLOUT_OFFLINE_AFTER (default 30m) and ROLLOUT_AUTO_ADVANCE (default on in crud mode only)', () => {
    expect(loadConfig({ AUTH_TOKEN: 't' })).toMatchObject({
      rolloutOfflineAfterMs: 30 * 60_000,
      rolloutAutoAdvance: false,
    });
    expect(loadConfig({ AUTH_TOKEN: 't', API_MODE: 'crud' }).rolloutAutoAdvance).toBe(true);
    expect(loadConfig({ AUTH_TOKEN: 't', API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'off' }).rolloutAutoAdvance).toBe(
      false,
    );
    expect(loadConfig({ AUTH_TOKEN: 't', ROLLOUT_OFFLINE_AFTER: '90s' }).rolloutOfflineAfterMs).toBe(90_000);
  });

  it('refuses auto-advance in read-only mode, and values that do not parse', () => {
    expect(() => loadConfig({ AUTH_TOKEN: 't', ROLLOUT_AUTO_ADVANCE: 'on' })).toThrow(
      /^ROLLOUT_AUTO_ADVANCE=on needs API_MODE=crud/,
    );
    expect(() => loadConfig({ AUTH_TOKEN: 't', API_MODE: 'crud', ROLLOUT_AUTO_ADVANCE: 'yes' })).toThrow(
      'ROLLOUT_AUTO_ADVANCE=yes is not valid; use one of: on, off',
    );
    expect(() => loadConfig({ AUTH_TOKEN: 't', ROLLOUT_OFFLINE_AFTER: 'soon' })).toThrow(
      'ROLLOUT_OFFLINE_AFTER=soon is not a positive duration',
    );
  });
});
