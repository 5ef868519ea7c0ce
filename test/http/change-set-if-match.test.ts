// A change set's `if_match` holds exactly one strong ETag, on the real server in crud mode (a
// local Git repository): a comma-separated list, `*`, a weak tag or a bare value is a 400
// naming the write by its index, and nothing is committed; the one ETag GET returned guards
// the write as before. The If-Match header of a REST write keeps HTTP's own meaning (a list,
// `*`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitCount, type CrudService, send, startCrud } from '../helpers/crud.ts';

const CHANGES = '/api/v2/gitops/changes';

let service: CrudService;
beforeAll(async () => {
  service = await startCrud('git');
});
afterAll(() => service?.close());

const etagOf = async (path: string): Promise<string> => (await send(service, 'GET', path)).headers.etag as string;
const patchTeamB = (ifMatch: unknown, tier: string) => ({
  writes: [
    { op: 'patch', collection: 'namespaces', id: 'team-a', patch: { labels: { team: 'a', tier } } },
    { op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { tier } }, if_match: ifMatch },
  ],
});

describe("a change set's if_match", () => {
  it.each<[string, (etag: string) => unknown, RegExp]>([
    ['a list that holds the ETag', (etag) => `"stale", ${etag}`, /not a list/],
    ['a list of the ETag twice', (etag) => `${etag}, ${etag}`, /not a list/],
    ['*', () => '*', /not \*/],
    ['the weak form of the ETag', (etag) => `W/${etag}`, /strong ETag/],
    ['the ETag without its quotes', (etag) => etag.slice(1, -1), /in its quotes/],
    ['a number', () => 7, /must be a string/],
  ])('is refused as %s, naming the write, and nothing is committed', async (_name, ifMatch, why) => {
    const etag = await etagOf('/namespaces/team-b');
    const commits = commitCount(service.dir!);
    const res = await send(service, 'POST', CHANGES, patchTeamB(ifMatch(etag), 'refused'));
    expect(res.status, res.text).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_error',
      details: [{ index: 1, path: 'if_match', message: expect.stringMatching(why) }],
    });
    expect(commitCount(service.dir!)).toBe(commits);
    expect(await etagOf('/namespaces/team-b')).toBe(etag);
  });

  it('is the one ETag GET returned: it guards the write, and a stale one is 412', async () => {
    const etag = await etagOf('/namespaces/team-b');
    const ok = await send(service, 'POST', CHANGES, patchTeamB(etag, 'first'));
    expect(ok.status, ok.text).toBe(201);
    const stale = await send(service, 'POST', CHANGES, patchTeamB(etag, 'second'));
    expect(stale.status).toBe(412);
    expect(stale.json().details).toEqual([expect.objectContaining({ index: 1 })]);
  });

  it("leaves a REST write's If-Match header as HTTP has it: a list, or *", async () => {
    const etag = await etagOf('/namespaces/team-b');
    expect(
      (
        await send(
          service,
          'PATCH',
          '/namespaces/team-b',
          { labels: { tier: 'listed' } },
          { headers: { 'if-match': `"stale", ${etag}` } },
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await send(
          service,
          'PATCH',
          '/namespaces/team-b',
          { labels: { tier: 'any' } },
          { headers: { 'if-match': '*' } },
        )
      ).status,
    ).toBe(200);
  });
});
