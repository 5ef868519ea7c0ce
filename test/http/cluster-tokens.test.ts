// Cluster tokens on the real server over loopback, on every backend: a cluster's own token
// reads that cluster's three endpoints (Bearer, and Basic with the cluster id as the user
// name) and gets 403 everywhere else, saying what it may do; tokens of either configured key
// verify; forged, foreign and malformed ones are 401; raising credential_generation (a PATCH,
// a commit by hand, a row changed by another process) revokes the old token and the new one
// reads; removing the record revokes it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signClusterToken } from '../../src/domain/cluster-token.ts';
import { COLLECTIONS } from '../../src/domain/records.ts';
import { commitAll } from '../helpers/git-fixture.ts';
import { CRUD_BACKENDS, CRUD_DATA, type CrudService, SAMPLES, send, startCrud } from '../helpers/crud.ts';
import { eventually, request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN, WRITE_TOKEN } from '../helpers/service.ts';
import { sqlInOtherProcess } from '../helpers/sqlite.ts';
import { published, watchLoads } from '../helpers/store-events.ts';

const SIGNING_KEY = 'cluster-token-key-new-0123456789abcdefgh';
const OLD_KEY = 'cluster-token-key-old-0123456789abcdefgh';
const KEYS = { CLUSTER_TOKEN_KEYS: `${SIGNING_KEY},${OLD_KEY}` };
const tokenOf = (id: string, generation = 0, key = SIGNING_KEY) =>
  signClusterToken(Buffer.from(key, 'utf8'), id, generation);
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

const PREFIX = '/api/v2/gitops';
const ENDPOINTS = ['platform-components', 'namespaces', 'rolebindings'] as const;
// In the crud data set: A is c1, B is c0.
const A = { id: 'c1', dns: 'c1.k8s.example.com' };
const B = { id: 'c0', dns: 'Bare.Example.COM' };
const endpointsOf = (dns: string) => ENDPOINTS.map((endpoint) => `${PREFIX}/clusters/${dns}/${endpoint}`);
const A_SCOPE =
  `this cluster token reads only cluster "c1"'s three endpoints ` +
  `(${PREFIX}/clusters/${A.dns}/{platform-components,namespaces,rolebindings}); this path is not one of them`;

describe.each(CRUD_BACKENDS)('cluster tokens on the %s backend', (backend) => {
  let service: CrudService;
  beforeAll(async () => {
    service = await startCrud(backend, KEYS);
  });
  afterAll(async () => {
    await service?.close();
  });

  it(
    "read the cluster's three endpoints, as Bearer and as Basic with the cluster id as user name, the same bytes as " +
      'the fleet token',
    async () => {
      for (const path of [...endpointsOf(A.dns), ...endpointsOf('C1.K8S.example.com.')]) {
        const fleet = await request(service.url, path, { token: READ_TOKEN });
        expect(fleet.status, path).toBe(200);
        const bearer = await request(service.url, path, { token: tokenOf(A.id) });
        expect(bearer.status, path).toBe(200);
        expect(bearer.text).toBe(fleet.text);
        expect(bearer.headers.etag).toBe(fleet.headers.etag);
        const head = await request(service.url, path, { method: 'HEAD', token: tokenOf(A.id) });
        expect(head.status, path).toBe(200);
        const viaBasic = await request(service.url, path, { headers: basic(A.id, tokenOf(A.id)) });
        expect(viaBasic.status, path).toBe(200);
        expect(viaBasic.text).toBe(fleet.text);
      }
      const wrongUser = await request(service.url, endpointsOf(A.dns)[0], { headers: basic(B.id, tokenOf(A.id)) });
      expect(wrongUser.status).toBe(401);
      expect(wrongUser.json().message).toContain('the user name must be the id of the cluster');
    },
  );

  it(
    'is refused with 403 everywhere else, saying what it may do: other clusters, the listing, the fleet view, every ' +
      'REST path',
    async () => {
      const token = tokenOf(A.id);
      const reads = [
        ...endpointsOf(B.dns),
        ...endpointsOf('no-such-cluster.example.com'),
        `${PREFIX}/clusters`,
        `${PREFIX}/clusters?environment=prod`,
        `${PREFIX}/fleet`,
        `${PREFIX}/clusters/${A.dns}`,
        `${PREFIX}/clusters/${A.dns}/unknown-endpoint`,
        `${PREFIX}/anything`,
      ];
      for (const path of reads) {
        const res = await request(service.url, path, { token });
        expect(res.status, path).toBe(403);
        expect(res.json(), path).toEqual({ error: 'forbidden', message: A_SCOPE });
        expect(res.headers['www-authenticate'], path).toBeUndefined();
      }
      await expectMatchesOpenApi(
        'get',
        `${PREFIX}/clusters/{cluster_dns}/namespaces`,
        403,
        (await request(service.url, endpointsOf(B.dns)[1], { token })).json(),
      );
      await expectMatchesOpenApi(
        'get',
        `${PREFIX}/clusters`,
        403,
        (await request(service.url, `${PREFIX}/clusters`, { token })).json(),
      );
      await expectMatchesOpenApi(
        'get',
        `${PREFIX}/fleet`,
        403,
        (await request(service.url, `${PREFIX}/fleet`, { token })).json(),
      );

      const before = await send(service, 'GET', `/clusters/${A.id}`);
      for (const collection of COLLECTIONS) {
        const sample = SAMPLES[collection];
        const existing = (await send(service, 'GET', `/${collection}`)).json()[0] as { id: string };
        const calls: [string, string, unknown][] = [
          ['GET', `/${collection}`, undefined],
          ['GET', `/${collection}/${existing.id}`, undefined],
          ['POST', `/${collection}`, sample.create],
          ['PUT', `/${collection}/${existing.id}`, existing],
          ['PATCH', `/${collection}/${existing.id}`, sample.patch],
          ['DELETE', `/${collection}/${existing.id}`, undefined],
        ];
        for (const [method, path, body] of calls) {
          const asBearer = await send(service, method, path, body, { token });
          const asBasic = await request(service.url, path, {
            method,
            headers: { ...basic(A.id, token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          for (const res of [asBearer, asBasic]) {
            expect(res.status, `${method} ${path}`).toBe(403);
            expect(res.json().message, `${method} ${path}`).toBe(A_SCOPE);
          }
        }
        await expectMatchesOpenApi(
          'delete',
          `/${collection}/{id}`,
          403,
          (await send(service, 'DELETE', `/${collection}/${existing.id}`, undefined, { token })).json(),
        );
      }
      // Nothing was written.
      expect((await send(service, 'GET', `/clusters/${A.id}`)).text).toBe(before.text);
      // /ready's full view names problems of the whole fleet: a cluster's token gets the public one.
      expect((await request(service.url, '/ready', { token })).json().view).toBe('public');
      expect((await request(service.url, '/ready', { token: READ_TOKEN })).json().view).toBe('full');
    },
  );

  it("verifies a token signed by either key; a forged MAC, another cluster's id, a malformed token: 401", async () => {
    for (const key of [SIGNING_KEY, OLD_KEY]) {
      expect((await request(service.url, endpointsOf(A.dns)[0], { token: tokenOf(A.id, 0, key) })).status, key).toBe(
        200,
      );
    }
    const good = tokenOf(A.id);
    const mac = good.slice(good.lastIndexOf('.') + 1);
    const flipped = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const refused = [
      ['a MAC with one character changed', `gcc1.${A.id}.${flipped}`],
      ['a MAC under an unknown key', tokenOf(A.id, 0, 'some-other-key-0123456789abcdefghijkl')],
      ["another cluster's id with A's MAC", `gcc1.${B.id}.${mac}`],
      ["A's MAC for a cluster that does not exist", `gcc1.c9.${mac}`],
      ['a MAC over another generation', tokenOf(A.id, 1)],
      ['no MAC', `gcc1.${A.id}.`],
      ['a MAC one character short', `gcc1.${A.id}.${mac.slice(1)}`],
      ['a padded MAC', `gcc1.${A.id}.${mac}=`],
      ['no id', `gcc1.${mac}`],
      ['another version', `gcc2.${A.id}.${mac}`],
      ['only the prefix', 'gcc1.'],
      ['an id that is not an id', `gcc1.-c1.${mac}`],
    ] as const;
    for (const [what, token] of refused) {
      for (const path of [endpointsOf(A.dns)[0], `${PREFIX}/whoami`]) {
        const res = await request(service.url, path, { token });
        expect(res.status, `${what}: ${path}`).toBe(401);
        expect(res.json().error).toBe('unauthorized');
        expect(res.headers['www-authenticate']).toContain('Bearer');
      }
      expect((await request(service.url, endpointsOf(A.dns)[0], { headers: basic(A.id, token) })).status, what).toBe(
        401,
      );
    }
    await expectMatchesOpenApi(
      'get',
      `${PREFIX}/clusters/{cluster_dns}/platform-components`,
      401,
      (await request(service.url, endpointsOf(A.dns)[0], { token: `gcc1.${B.id}.${mac}` })).json(),
    );
    expect(service.logText()).not.toContain(mac);
  });

  it('tells a cluster who it is at /whoami', async () => {
    const res = await request(service.url, `${PREFIX}/whoami`, { token: tokenOf(A.id) });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ kind: 'cluster', name: 'c1', email: null, roles: ['read'], clusters: ['c1'] });
    await expectMatchesOpenApi('get', `${PREFIX}/whoami`, 200, res.json());
  });

  it(
    'raising credential_generation revokes the old token ' + 'and the new one reads; removing the record revokes it',
    async () => {
      const [path] = endpointsOf(A.dns);
      const before = tokenOf(A.id, 0);
      const after = tokenOf(A.id, 1);
      expect((await request(service.url, path, { token: before })).status).toBe(200);
      expect((await request(service.url, path, { token: after })).status).toBe(401);

      const bumped = await send(service, 'PATCH', `/clusters/${A.id}`, { credential_generation: 1 });
      expect(bumped.status).toBe(200);
      expect(bumped.json().credential_generation).toBe(1);
      expect((await request(service.url, path, { token: before })).status).toBe(401);
      expect((await request(service.url, path, { token: after })).status).toBe(200);
      expect((await request(service.url, path, { token: tokenOf(A.id, 1, OLD_KEY) })).status).toBe(200);
      // The cluster is served exactly as before: the generation is not part of its inputs.
      expect((await request(service.url, path, { token: after })).text).toBe(
        (await request(service.url, path, { token: READ_TOKEN })).text,
      );

      expect((await send(service, 'DELETE', `/clusters/${A.id}`)).status).toBe(204);
      const gone = await request(service.url, path, { token: after });
      expect(gone.status).toBe(401);
      expect((await request(service.url, `${PREFIX}/whoami`, { token: after })).status).toBe(401);
    },
  );

  it(
    'a revoked token stays revoked: the generation is not set back, left out, or lowered by deleting and ' +
      're-creating the cluster in one set',
    async () => {
      const [path] = endpointsOf(A.dns);
      const c1 = { ...(CRUD_DATA.clusters.find((c) => c.id === A.id) as Record<string, unknown>) };
      // The test before deleted c1 at generation 1: back at 0, a preview warns that its old tokens would be valid
      // again.
      const preview = await send(service, 'POST', `${PREFIX}/changes/preview`, {
        writes: [{ op: 'create', collection: 'clusters', id: A.id, record: c1 }],
      });
      expect(
        preview.json().problems.filter((p: { code: string }) => p.code === 'credential_generation_reused'),
      ).toMatchObject([
        { severity: 'warning', message: expect.stringContaining('deleted at credential_generation 1') },
      ]);
      expect((await send(service, 'POST', '/clusters', { ...c1, credential_generation: 2 })).status).toBe(201);
      const status = async (generation: number) =>
        (await request(service.url, path, { token: tokenOf(A.id, generation) })).status;
      const revokedStays = async () =>
        expect([await status(0), await status(1), await status(2)]).toEqual([401, 401, 200]);
      await revokedStays();
      for (const patch of [{ credential_generation: null }, { credential_generation: 1 }]) {
        const res = await send(service, 'PATCH', `/clusters/${A.id}`, patch);
        expect(res.status, JSON.stringify(patch)).toBe(400);
        expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(['/credential_generation']);
        await revokedStays();
      }
      const recreate = (record: Record<string, unknown>) => ({
        writes: [
          { op: 'delete', collection: 'clusters', id: A.id },
          { op: 'create', collection: 'clusters', id: A.id, record },
        ],
      });
      for (const record of [{ ...c1 }, { ...c1, credential_generation: 1 }]) {
        const res = await send(service, 'POST', `${PREFIX}/changes`, recreate(record));
        expect(res.status).toBe(400);
        expect(res.json().details[0]).toMatchObject({ index: 1, path: '/credential_generation' });
        await revokedStays();
      }
      expect(
        (await send(service, 'POST', `${PREFIX}/changes`, recreate({ ...c1, credential_generation: 2 }))).status,
      ).toBe(201);
      await revokedStays();
    },
  );
});

describe('revoked by a change made outside the service', () => {
  it('git: a commit raising credential_generation, then one removing the record', async () => {
    const service = await startCrud('git', KEYS);
    try {
      const dir = service.dir!;
      const [path] = endpointsOf(A.dns);
      expect((await request(service.url, path, { token: tokenOf(A.id, 0) })).status).toBe(200);
      const file = join(dir, 'clusters', `${A.id}.yaml`);
      writeFileSync(file, `${readFileSync(file, 'utf8')}credential_generation: 7\n`);
      await published(service, commitAll(dir, 'revoke c1 token'));
      expect((await request(service.url, path, { token: tokenOf(A.id, 0) })).status).toBe(401);
      expect((await request(service.url, path, { token: tokenOf(A.id, 7) })).status).toBe(200);
      expect((await send(service, 'GET', `/clusters/${A.id}`)).json().credential_generation).toBe(7);

      // A commit setting it back is refused: the revision with 7 stays served.
      const revoked = readFileSync(file, 'utf8');
      writeFileSync(file, revoked.replace('credential_generation: 7', 'credential_generation: 0'));
      const loads = watchLoads(service);
      expect(await loads.until(commitAll(dir, 'set c1 back'))).toMatchObject({ result: 'refused' });
      loads.stop();
      expect((await request(service.url, path, { token: tokenOf(A.id, 0) })).status).toBe(401);
      expect((await request(service.url, path, { token: tokenOf(A.id, 7) })).status).toBe(200);

      rmSync(file);
      await published(service, commitAll(dir, 'remove c1'));
      expect((await request(service.url, path, { token: tokenOf(A.id, 7) })).status).toBe(401);
      // Back in a later commit at a generation its old tokens have: published, with a warning naming 7.
      writeFileSync(file, revoked.replace('credential_generation: 7', 'credential_generation: 3'));
      await published(service, commitAll(dir, 'c1 again'));
      const warning = () =>
        service.logs.find(
          (line) => line.msg === 'clusters deleted before are back at a credential_generation their old tokens have',
        );
      await eventually(() => warning() !== undefined);
      expect(warning()!.problems).toEqual([expect.stringContaining('was deleted at credential_generation 7')]);
    } finally {
      await service.close();
    }
  });

  it('sqlite: another process raises the generation in the database', async () => {
    const service = await startCrud('sqlite', KEYS);
    try {
      const [path] = endpointsOf(A.dns);
      expect((await request(service.url, path, { token: tokenOf(A.id, 0) })).status).toBe(200);
      const revision = Number(service.store.published()!.snapshot.revision);
      sqlInOtherProcess(service.prepared.dbPath!, `UPDATE clusters SET credential_generation = 3 WHERE id = '${A.id}'`);
      await published(service, String(revision + 1));
      expect((await request(service.url, path, { token: tokenOf(A.id, 0) })).status).toBe(401);
      expect((await request(service.url, path, { token: tokenOf(A.id, 3) })).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});

describe('without CLUSTER_TOKEN_KEYS', () => {
  it('a cluster token is not valid (401), and the fleet tokens work as before', async () => {
    const service = await startCrud('memory');
    try {
      const [path] = endpointsOf(A.dns);
      const res = await request(service.url, path, { token: tokenOf(A.id) });
      expect(res.status).toBe(401);
      expect(res.json().message).toContain('CLUSTER_TOKEN_KEYS');
      expect((await request(service.url, path, { token: READ_TOKEN })).status).toBe(200);
      expect((await send(service, 'GET', `/clusters/${A.id}`, undefined, { token: WRITE_TOKEN })).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});
