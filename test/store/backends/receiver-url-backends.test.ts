// receiver_url is kept by every backend that stores: written, read back by a new process on
// the same store, and set back to null (a local Git repository, a remote one, SQLite; memory
// keeps it while it runs).
import { afterEach, describe, expect, it } from 'vitest';
import { CRUD_BACKENDS, type CrudService, send, startCrud } from '../../helpers/crud.ts';
import { startTestService, type TestService, WRITE_TOKEN } from '../../helpers/service.ts';

const HOOK = 'https://hooks.c1.k8s.example.com/hook/5b8f0d0e7c';
const ENV = { RECEIVER_HOSTS: '*.k8s.example.com' };

let running: TestService[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()));
  running = [];
});

describe.each(CRUD_BACKENDS)('receiver_url on %s', (backend) => {
  it('is stored, read back by a new process, and set back to null', async () => {
    const service: CrudService = await startCrud(backend, ENV);
    running.push(service);
    expect((await send(service, 'GET', '/clusters/c1')).json().receiver_url).toBeNull();
    expect((await send(service, 'PATCH', '/clusters/c1', { receiver_url: HOOK })).status).toBe(200);
    expect((await send(service, 'GET', '/clusters/c1')).json().receiver_url).toBe(HOOK);
    if (backend !== 'memory') {
      await service.close();
      const again = await startTestService({
        API_MODE: 'crud',
        CRUD_AUTH_TOKEN: WRITE_TOKEN,
        ROLLOUT_AUTO_ADVANCE: 'off',
        ...service.prepared.env,
        ...ENV,
      });
      running.push(again);
      expect((await send(again, 'GET', '/clusters/c1')).json().receiver_url).toBe(HOOK);
      expect((await send(again, 'PATCH', '/clusters/c1', { receiver_url: null })).status).toBe(200);
      expect((await send(again, 'GET', '/clusters/c1')).json().receiver_url).toBeNull();
    }
  });
});
