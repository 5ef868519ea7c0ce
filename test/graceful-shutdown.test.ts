// Stopping the service lets a request that is already in flight finish.
import { request as httpRequest } from 'node:http';
import { expect, it } from 'vitest';
import { asSeedFile } from './helpers/fixture-data.ts';
import { READ_TOKEN, startTestService, WRITE_TOKEN } from './helpers/service.ts';

it('finishes an in-flight write before the server closes, then refuses new connections', async () => {
  const service = await startTestService({ STORE_BACKEND: 'memory', SEED_FILE: asSeedFile(), API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN });
  const body = JSON.stringify({ labels: { during: 'shutdown' } });
  const events: string[] = [];
  const arrived = new Promise<void>((resolve) => service.server.once('request', () => resolve()));
  let finishBody = () => {};
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      `${service.url}/namespaces/team-b`,
      { method: 'PATCH', headers: { authorization: `Bearer ${WRITE_TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += String(c)));
        res.on('end', () => {
          events.push('response');
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    req.on('error', reject);
    // Half the body now; the rest once shutdown has begun.
    req.write(body.slice(0, 10));
    finishBody = () => req.end(body.slice(10));
  });
  await arrived;
  const closing = service.close().then(() => events.push('closed'));
  finishBody();

  const res = await response;
  await closing;
  expect(events).toEqual(['response', 'closed']);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.text).labels).toEqual({ during: 'shutdown' });
  await expect(fetch(`${service.url}/health`, { headers: { authorization: `Bearer ${READ_TOKEN}` } })).rejects.toThrow();
});
