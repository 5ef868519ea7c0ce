// Faults, the same on every backend that can have them: a revision the service refuses, a
// lock held by someone else, a store that moved under a write. Each backend meets each fault
// the way it really happens there (helpers/store-actions.ts), and answers it with the same
// status and error code. The memory backend has nobody behind its back: none of these can
// happen to it.
import { afterAll, describe, expect, it } from 'vitest';
import { type Backend, BACKENDS } from '../../helpers/backends.ts';
import { type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { eventually, request } from '../../helpers/http.ts';
import { READ_TOKEN } from '../../helpers/service.ts';
import { type StoreActions, storeActions } from '../../helpers/store-actions.ts';

const FAULTY = BACKENDS.filter((b) => b !== 'memory');
const PC = '/api/v2/gitops/clusters/c1.k8s.example.com/platform-components';

/** What each backend answered to each fault: compared across backends at the end. */
const answers: Record<string, Partial<Record<Backend, { status: number; error: string }>>> = {};

function record(fault: string, backend: Backend, res: { status: number; json(): { error: string } }): void {
  answers[fault] ??= {};
  answers[fault][backend] = { status: res.status, error: res.json().error };
}

describe.each(FAULTY)('faults on the %s backend', (backend) => {
  let service: CrudService;
  let actions: StoreActions;
  const start = async () => {
    // A write waits this long for a Git lock before it gives up.
    service = await startCrud(backend, { GIT_LOCK_TIMEOUT: '300ms' });
    actions = storeActions(service.prepared, service)!;
  };
  afterAll(() => service?.close());

  it(
    'a refused revision: the last good bytes stay served, /ready names the problem, ' + 'writes answer 503 store_error',
    async () => {
      await start();
      const before = await request(service.url, PC, { token: READ_TOKEN });
      const revision = before.headers['x-config-revision'];
      await actions.breakNamespace();
      await eventually(
        async () => (await request(service.url, '/ready', { token: READ_TOKEN })).json().stale === true,
        5000,
      );
      const ready = (await request(service.url, '/ready', { token: READ_TOKEN })).json();
      expect(ready).toMatchObject({ status: 'ok', revision, last_load: { ok: false } });
      expect(ready.last_load.problems).toEqual([
        expect.objectContaining({
          code: 'wrong_type',
          severity: 'error',
          record: 'namespaces/team-b',
          field: '/labels/tier',
        }),
      ]);

      const during = await request(service.url, PC, { token: READ_TOKEN });
      expect(during.body.equals(before.body)).toBe(true);
      expect(during.headers.etag).toBe(before.headers.etag);
      expect(during.headers['x-config-revision']).toBe(revision);

      const write = await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '7' } } });
      record('refused revision', backend, write);
      expect(write.status).toBe(503);
      expect(write.json()).toMatchObject({ error: 'store_error', message: expect.stringContaining('was refused') });
      expect(write.json().details[0].message).toContain('must be a string');
      expect((await send(service, 'GET', '/clusters/c1')).json().patches.podinfo.replicaCount).toBe('3');
      await service.close();
    },
  );

  it(
    'a lock held by someone else: the write answers 503 store_error and stores nothing; it succeeds once the lock ' +
      'is gone',
    async () => {
      await start();
      const before = await send(service, 'GET', '/namespaces/team-b');
      const unlock = await actions.lock();
      let write;
      try {
        write = await send(service, 'PATCH', '/namespaces/team-b', { labels: { locked: 'no' } });
      } finally {
        await unlock();
      }
      record('held lock', backend, write);
      expect(write.status).toBe(503);
      expect(write.json()).toMatchObject({ error: 'store_error' });
      expect(write.headers['retry-after']).toMatch(/^\d+$/);
      expect((await send(service, 'GET', '/namespaces/team-b')).text).toBe(before.text);

      const again = await send(service, 'PATCH', '/namespaces/team-b', { labels: { locked: 'no' } });
      expect(again.status).toBe(200);
      expect((await send(service, 'GET', '/namespaces/team-b')).json().labels).toEqual({ locked: 'no' });
      await service.close();
    },
  );

  it('a store that moved under a write: the write is applied on top, and both changes are kept', async () => {
    await start();
    await actions.relabelElsewhere({ by: 'someone-else' });
    // Straight away, before the change may have been noticed.
    const write = await send(service, 'PATCH', '/clusters/c1', { patches: { podinfo: { replicaCount: '8' } } });
    record('moved under a write', backend, write);
    expect(write.status).toBe(200);
    expect(write.json().patches.podinfo.replicaCount).toBe('8');
    const other = await send(service, 'GET', '/namespaces/team-b');
    expect(other.json().labels).toEqual({ by: 'someone-else' });
    expect(other.headers['x-config-revision']).toBe(write.headers['x-config-revision']);
    const served = await request(service.url, PC, { token: READ_TOKEN });
    expect(served.headers['x-config-revision']).toBe(write.headers['x-config-revision']);
    expect(served.json().inputs.find((i: { id: string }) => i.id === 'podinfo').patches.replicaCount).toBe('8');
    await service.close();
  });
});

describe('every backend', () => {
  it('answers each fault with the same status and error code', () => {
    expect(Object.keys(answers).sort()).toEqual(['held lock', 'moved under a write', 'refused revision']);
    for (const [fault, byBackend] of Object.entries(answers)) {
      expect(Object.keys(byBackend).sort(), fault).toEqual([...FAULTY].sort());
      const first = Object.values(byBackend)[0];
      for (const [backend, answer] of Object.entries(byBackend))
        expect(answer, `${fault} on ${backend}`).toEqual(first);
    }
  });
});
