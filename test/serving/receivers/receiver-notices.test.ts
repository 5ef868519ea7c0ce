// Notices to clusters' Flux Receivers, with the real service in crud mode on a local Git
// repository and a receiver over HTTPS on loopback (RECEIVER_HOSTS names 127.0.0.1 itself).
// Facts from notification-controller's sources (internal/server/receiver_handlers.go): a
// generic-hmac Receiver reads the whole body as bytes and checks the `X-Signature` header,
// `sha256=<hex HMAC-SHA256(body)>` keyed by its Secret's `token` (github.ValidateSignature).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterTokenKey, signClusterToken } from '../../../src/domain/cluster-token.ts';
import { CRUD_DATA } from '../../fixtures/crud-data.ts';
import { crudRepo, type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { asRepoFiles } from '../../helpers/fixture-data.ts';
import { type FakeReceiver, startFakeReceiver, verifiesAsGenericHmac } from '../../helpers/flux-receiver.ts';
import { request } from '../../helpers/http.ts';
import { READ_TOKEN } from '../../helpers/service.ts';
import { removeDir, tempDir } from '../../helpers/temp-files.ts';
import { type CertificateFiles, makeCa, makeSignedCertificate } from '../../helpers/tls-certificates.ts';

const KEY = 'receiver-notice-test-key-0123456789abcdef';
const tokenOf = (id: string, generation = 0) => signClusterToken(clusterTokenKey(KEY), id, generation);

let dir: string;
let ca: CertificateFiles;
let receiver: FakeReceiver;
const services: CrudService[] = [];

beforeAll(async () => {
  dir = tempDir('receivers-');
  ca = makeCa(dir, 'ca');
  receiver = await startFakeReceiver(makeSignedCertificate(dir, ca, 'receiver', 'server'));
});
afterAll(async () => {
  for (const s of services) await s.close();
  await receiver.close();
  removeDir(dir);
});

/** A crud service whose clusters c1 and c0 have receivers at these paths of the fake receiver. */
async function serviceWith(paths: { c1: string; c0: string }, env: Record<string, string> = {}): Promise<CrudService> {
  const data = structuredClone(CRUD_DATA);
  for (const cluster of data.clusters)
    cluster.receiver_url = `https://127.0.0.1:${receiver.port}${paths[cluster.id as 'c1' | 'c0']}`;
  const service = await startCrud(
    'git',
    { RECEIVER_HOSTS: '127.0.0.1', CLUSTER_TOKEN_KEYS: KEY, RECEIVER_CA_FILE: ca.cert, ...env },
    crudRepo(asRepoFiles(data)),
  );
  services.push(service);
  return service;
}

const noticesTo = (prefix: string) => receiver.received.filter((n) => n.path.startsWith(prefix));

describe('receiver notices', () => {
  it('one signed POST per cluster whose answers a commit changed, verified with that cluster token', async () => {
    const service = await serviceWith({ c1: '/hook/one-c1', c0: '/hook/one-c0' });
    const before = receiver.received.length;
    // traefik reaches c1 alone: c0 serves no component.
    expect((await send(service, 'PATCH', '/platform_components/traefik', { oci_tag: '33.0.1' })).status).toBe(200);
    await receiver.until(before + 1);
    await service.receivers!.idle();
    expect(noticesTo('/hook/one-').map((n) => n.path)).toEqual(['/hook/one-c1']);
    const [notice] = noticesTo('/hook/one-c1');
    expect(verifiesAsGenericHmac(notice, tokenOf('c1'))).toBe(true);
    expect(verifiesAsGenericHmac(notice, tokenOf('c0'))).toBe(false);
    expect(JSON.parse(notice.body.toString())).toEqual({
      cluster: 'c1',
      revision: service.store.published()!.snapshot.revision,
    });
    // A change of c0's own answers tells c0, once; one that changes none of them (its name:
    // c0 serves no component, so no answer carries it) tells nobody.
    expect((await send(service, 'PATCH', '/clusters/c0', { cluster_name: 'renamed' })).status).toBe(200);
    expect((await send(service, 'PATCH', '/clusters/c0', { namespaces: [{ id: 'team-b' }] })).status).toBe(200);
    await receiver.until(before + 2);
    await service.receivers!.idle();
    expect(noticesTo('/hook/one-').map((n) => n.path)).toEqual(['/hook/one-c1', '/hook/one-c0']);
    const metrics = await request(service.url, '/metrics', { token: READ_TOKEN });
    expect(metrics.text).toMatch(/receiver_notices_total\{outcome="sent",reason=""\} 2/);
  });

  it('a receiver that hangs delays no publication: the write is answered while the notice is still open', async () => {
    const service = await serviceWith({ c1: '/hang/c1', c0: '/hook/hang-c0' }, { RECEIVER_TIMEOUT: '60s' });
    const before = receiver.received.length;
    // Were publication to wait for the notice, this answer would come only after 60 s.
    const answer = await send(service, 'PATCH', '/platform_components/traefik', { oci_tag: '33.0.2' });
    expect(answer.status).toBe(200);
    await receiver.until(before + 1);
    expect(service.receivers!.pending()).toBe(1);
    receiver.release();
    await service.receivers!.idle();
  });

  it(
    'a redirect is not followed but skipped, a failing ' + 'receiver is retried and counted, each with a log line',
    async () => {
      const service = await serviceWith({ c1: '/redirect/c1', c0: '/fail/c0' });
      const before = receiver.received.length;
      expect((await send(service, 'PATCH', '/clusters/c0', { namespaces: [{ id: 'team-b' }] })).status).toBe(200);
      expect((await send(service, 'PATCH', '/platform_components/traefik', { oci_tag: '33.0.3' })).status).toBe(200);
      await service.untilLogged((l) => l.msg === 'receiver notice skipped' && l.reason === 'redirect');
      await service.untilLogged((l) => l.msg === 'receiver notice failed' && l.reason === 'status', {
        timeoutMs: 30_000,
      });
      // Nothing was asked of the redirect's target; the failing one was tried more than once.
      expect(receiver.received.slice(before).filter((n) => n.path === '/redirect/c1')).toHaveLength(1);
      expect(receiver.received.slice(before).filter((n) => n.path === '/fail/c0').length).toBeGreaterThan(1);
      const metrics = (await request(service.url, '/metrics', { token: READ_TOKEN })).text;
      expect(metrics).toMatch(/receiver_notices_total\{outcome="skipped",reason="redirect"\} 1/);
      expect(metrics).toMatch(/receiver_notices_total\{outcome="failed",reason="status"\} 1/);
    },
    40_000,
  );

  it('a URL off RECEIVER_HOSTS is refused by a write, and one already served is skipped, never called', async () => {
    // The repository names 127.0.0.1, which this service does not allow: served (no baseline
    // brought it in), warned of, and skipped when its cluster changes.
    const service = await serviceWith(
      { c1: '/hook/off-c1', c0: '/hook/off-c0' },
      { RECEIVER_HOSTS: '*.k8s.example.com' },
    );
    const refused = await send(service, 'PATCH', '/clusters/c0', { receiver_url: 'https://169.254.169.254/hook/x' });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({
      details: [
        {
          path: '/receiver_url',
          message: expect.stringContaining('RECEIVER_HOSTS (*.k8s.example.com) does not allow'),
        },
      ],
    });
    expect(
      (await send(service, 'PATCH', '/clusters/c0', { receiver_url: 'http://a.k8s.example.com/hook/x' })).status,
    ).toBe(400);
    expect((await send(service, 'PATCH', '/platform_components/traefik', { oci_tag: '33.0.4' })).status).toBe(200);
    await service.untilLogged((l) => l.msg === 'receiver notice skipped' && l.reason === 'url_refused');
    expect(noticesTo('/hook/off-')).toEqual([]);
  });
});
