// POST /api/v2/gitops/events on the real server over loopback: events as notification-controller
// sends them (helpers/flux-events.ts says from which of Flux's sources each fact comes) are taken
// with the cluster's token as the caller (a `generic` Provider whose headers Secret carries it,
// Bearer or Basic) or signed as `generic-hmac` signs (X-Signature keyed by the token of the
// cluster named in metadata.cluster, the Alert's eventMetadata), and answered 202; every bad
// input gets its own clear 400, 401, 403, 413 or 429 with the JSON error body, and nothing of it
// is kept.
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrudService, startCrud } from '../helpers/crud.ts';
import { EVENTS, postSigned, postWithToken } from '../helpers/flux-event-posts.ts';
import { clusterToken, helmEventBody, hmacSignature } from '../helpers/flux-events.ts';
import { request } from '../helpers/http.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { READ_TOKEN } from '../helpers/service.ts';

const KEY = 'events-test-token-key-0123456789abcdefgh';
// In the crud data set: c1 and c0.
const C1 = clusterToken(KEY, 'c1');
const C0 = clusterToken(KEY, 'c0');
const upgraded = (cluster: string | null, message?: string) =>
  helmEventBody({
    name: 'podinfo',
    reason: 'UpgradeSucceeded',
    revision: '6.7.2',
    cluster,
    ...(message ? { message } : {}),
  });

describe('POST /api/v2/gitops/events', () => {
  let service: CrudService;
  beforeAll(async () => {
    service = await startCrud('memory', { CLUSTER_TOKEN_KEYS: KEY, EVENTS_RATE: '1', EVENTS_BURST: '40' });
  });
  afterAll(async () => {
    await service?.close();
  });
  const kept = (id: string) => service.events.of(id)?.length ?? 0;

  it('takes an event with the cluster token (Bearer, Basic) or signed as generic-hmac signs: 202', async () => {
    const bearer = await postWithToken(service.url, upgraded(null, 'one'), C1);
    expect(bearer.status, bearer.text).toBe(202);
    expect(bearer.json()).toEqual({ status: 'accepted' });
    await expectMatchesOpenApi('post', EVENTS, 202, bearer.json());
    const basic = await request(service.url, EVENTS, {
      method: 'POST',
      body: upgraded('c1', 'two'),
      headers: { authorization: `Basic ${Buffer.from(`c1:${C1}`).toString('base64')}` },
    });
    expect(basic.status, basic.text).toBe(202);
    // generic-hmac: no Authorization at all, the cluster named by the Alert's eventMetadata.
    const signed = await postSigned(service.url, upgraded('c1', 'three'), C1);
    expect(signed.status, signed.text).toBe(202);
    expect(service.events.of('c1')!.map((e) => e.message)).toEqual(['one', 'two', 'three']);
    // The metadata as notification-controller forwards it: the group prefix already stripped.
    expect(service.events.of('c1')![0]).toMatchObject({
      kind: 'HelmRelease',
      name: 'podinfo',
      reason: 'UpgradeSucceeded',
      metadata: { revision: '6.7.2' },
    });
    // A delivery retried (the same body again): 202, not kept twice.
    const again = await postSigned(service.url, upgraded('c1', 'three'), C1);
    expect(again.status).toBe(202);
    expect(again.json().status).toBe('duplicate');
    await expectMatchesOpenApi('post', EVENTS, 202, again.json());
    expect(kept('c1')).toBe(3);
  });

  it('refuses each bad input with its own status and message, and keeps nothing of it', async () => {
    const before = service.events.size;
    const body = upgraded('c1', 'bad');
    const cases: {
      name: string;
      send: () => Promise<{ status: number; json(): any; headers: Record<string, unknown> }>;
      status: number;
      says: RegExp;
    }[] = [
      {
        name: 'no credential, no signature',
        send: () => request(service.url, EVENTS, { method: 'POST', body }),
        status: 401,
        says: /Authorization header is required/,
      },
      {
        name: 'a signature of another body',
        send: () =>
          request(service.url, EVENTS, {
            method: 'POST',
            body,
            headers: { 'x-signature': hmacSignature(upgraded('c1', 'changed'), C1) },
          }),
        status: 401,
        says: /does not verify with the token of cluster "c1"/,
      },
      {
        name: "signed with another cluster's token",
        send: () => postSigned(service.url, body, C0),
        status: 401,
        says: /does not verify/,
      },
      {
        name: 'signed for a cluster that does not exist',
        send: () => postSigned(service.url, upgraded('c42'), clusterToken(KEY, 'c42')),
        status: 401,
        says: /cluster "c42"/,
      },
      {
        name: 'signed, naming no cluster',
        send: () => postSigned(service.url, upgraded(null), C1),
        status: 401,
        says: /names its cluster in metadata.cluster/,
      },
      {
        name: 'a signature not of the form',
        send: () => request(service.url, EVENTS, { method: 'POST', body, headers: { 'x-signature': 'sha1=abc' } }),
        status: 401,
        says: /sha256=<64 hex digits>/,
      },
      {
        name: 'a forged cluster token',
        send: () => postWithToken(service.url, body, `${C1.slice(0, -2)}xx`),
        status: 401,
        says: /cluster token is not valid/,
      },
      {
        name: "another cluster's credential for c1's event",
        send: () => postWithToken(service.url, body, C0),
        status: 403,
        says: /about cluster "c1".*credential of "c0"/,
      },
      {
        name: 'a caller that is not a cluster',
        send: () => postWithToken(service.url, body, READ_TOKEN),
        status: 403,
        says: /events are sent by clusters/,
      },
      {
        name: 'malformed JSON',
        send: () => postWithToken(service.url, '{"involvedObject":', C1),
        status: 400,
        says: /not valid JSON/,
      },
      {
        name: 'JSON that is not an event',
        send: () => postWithToken(service.url, '{"kind":"Deployment"}', C1),
        status: 400,
        says: /\/involvedObject: required/,
      },
      {
        name: 'a severity Flux does not send',
        send: () => postWithToken(service.url, body.replace('"severity":"info"', '"severity":"fatal"'), C1),
        status: 400,
        says: /\/severity/,
      },
    ];
    for (const c of cases) {
      const res = await c.send();
      expect(res.status, `${c.name}: ${JSON.stringify(res.json())}`).toBe(c.status);
      expect(res.json().error, c.name).toBe({ 400: 'bad_request', 401: 'unauthorized', 403: 'forbidden' }[c.status]);
      expect(res.json().message, c.name).toMatch(c.says);
      expect(res.headers['cache-control'], c.name).toBe('no-store');
      await expectMatchesOpenApi('post', EVENTS, c.status, res.json());
    }
    const notEvent = await postWithToken(service.url, '{"kind":"Deployment"}', C1);
    expect(notEvent.json().details.map((d: { path: string }) => d.path)).toEqual([
      '/involvedObject',
      '/involvedObject/kind',
      '/involvedObject/name',
      '/severity',
      '/timestamp',
    ]);
    expect(service.events.size).toBe(before);
  });

  it('refuses a body over 64 KiB with 413, declared or streamed, and keeps nothing', async () => {
    const before = service.events.size;
    const huge = upgraded('c1', 'x'.repeat(70 * 1024));
    const declared = await postWithToken(service.url, huge, C1);
    expect(declared.status).toBe(413);
    expect(declared.json()).toMatchObject({
      error: 'payload_too_large',
      message: expect.stringContaining('at most 65536 bytes'),
    });
    // Chunked, with no Content-Length: refused once it grows past the bound.
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        new URL(EVENTS, service.url),
        { method: 'POST', headers: { authorization: `Bearer ${C1}`, 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 9; i++) req.write(huge.slice(i * 8192, (i + 1) * 8192));
      req.end();
    });
    expect(streamed).toBe(413);
    expect(service.events.size).toBe(before);
  });

  it('limits each cluster to EVENTS_BURST at once and EVENTS_RATE a second: 429, Retry-After', async () => {
    const statuses: number[] = [];
    let refused: any;
    for (let i = 0; i < 60; i++) {
      const res = await postWithToken(service.url, upgraded('c0', `burst ${i}`), C0);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    const accepted = statuses.filter((s) => s === 202).length;
    // 40 at once, and the bucket refills at 1 a second while the 60 are sent.
    expect(accepted).toBeGreaterThanOrEqual(40);
    expect(accepted).toBeLessThan(45);
    expect(statuses.filter((s) => s === 429).length).toBe(60 - accepted);
    expect(refused.json()).toMatchObject({
      error: 'too_many_requests',
      message: expect.stringContaining('cluster "c0" sent more than 40 events at once'),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await expectMatchesOpenApi('post', EVENTS, 429, refused.json());
    expect(kept('c0')).toBe(accepted);
    // Another cluster has its own allowance.
    expect((await postWithToken(service.url, upgraded(null, 'after the burst of c0'), C1)).status).toBe(202);
  });

  it('takes POST only', async () => {
    const res = await request(service.url, EVENTS, { token: C1 });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('10,000 events from one cluster at once', () => {
  let service: CrudService;
  beforeAll(async () => {
    service = await startCrud('memory', { CLUSTER_TOKEN_KEYS: KEY, LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('are limited to EVENTS_BURST and EVENTS_RATE, and what is kept stays within its bounds', async () => {
    // As a notification-controller would, on kept-alive connections, signed as generic-hmac signs.
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const post = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const headers = { 'content-type': 'application/json', 'x-signature': hmacSignature(body, C1) };
        const req = httpRequest(new URL(EVENTS, service.url), { method: 'POST', agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(body);
      });
    const started = Date.now();
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < 10_000) {
        const status = await post(upgraded('c1', `flood ${next++}`));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    agent.destroy();
    const seconds = (Date.now() - started) / 1000;
    const accepted = statuses.get(202) ?? 0;
    expect(accepted + (statuses.get(429) ?? 0)).toBe(10_000);
    expect(accepted).toBeGreaterThanOrEqual(100);
    expect(accepted).toBeLessThanOrEqual(100 + Math.ceil(10 * seconds) + 1);
    // At most 64 kept of the cluster, the newest; far within EVENTS_MEMORY.
    expect(service.events.of('c1')).toHaveLength(64);
    expect(service.events.of('c1')!.at(-1)!.message).toMatch(/^flood \d+$/);
    expect(service.events.bytes).toBeLessThan(100 * 1024);
  }, 180_000);
});
