// What a commit message may hold, on the real server in crud mode (a local Git repository):
// a REST write's Gitops-Commit-Message header and a change set's `message` are refused (400
// naming the problem, nothing committed) when they hold a control character (C0, DEL, C1), a
// bidirectional control (U+202E and its kin make a message read otherwise than it is stored)
// or a line or paragraph separator (U+2028, U+2029: a line break to some readers, none to
// git); the header given twice is refused too, though Node joins the two into one value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitCount, type CrudService, send, startCrud } from '../helpers/crud.ts';
import { RawConnection } from '../helpers/raw-connection.ts';
import { WRITE_TOKEN } from '../helpers/service.ts';

const CHANGES = '/api/v2/gitops/changes';

/** Characters no message may hold, with the code point the answer names. */
const REFUSED: [named: string, char: string, why: RegExp][] = [
  ['U+0085', '\u0085', /control characters/],
  ['U+009B', '\u009b', /control characters/],
  ['U+202E', '\u202e', /bidirectional control/],
  ['U+2066', '\u2066', /bidirectional control/],
  ['U+200F', '\u200f', /bidirectional control/],
  ['U+061C', '\u061c', /bidirectional control/],
  ['U+2028', '\u2028', /line or paragraph separators/],
  ['U+2029', '\u2029', /line or paragraph separators/],
];

let service: CrudService;
beforeAll(async () => {
  service = await startCrud('git');
});
afterAll(() => service?.close());

describe('a commit message', () => {
  it.each(REFUSED)(
    'holding %s is refused in the header and in a change set, naming it; nothing is committed',
    async (named, char, why) => {
      const commits = commitCount(service.dir!);
      const message = `Label team-b ${char}gold`;
      const header = await send(
        service,
        'PATCH',
        '/namespaces/team-b',
        { labels: { tier: 'gold' } },
        { headers: { 'gitops-commit-message': encodeURIComponent(message) } },
      );
      expect(header.status, header.text).toBe(400);
      expect(header.json().details).toEqual([{ path: 'Gitops-Commit-Message', message: expect.stringMatching(why) }]);
      expect(header.json().message).toContain(named);
      const set = await send(service, 'POST', CHANGES, {
        message,
        writes: [{ op: 'patch', collection: 'namespaces', id: 'team-b', patch: { labels: { tier: 'gold' } } }],
      });
      expect(set.status, set.text).toBe(400);
      expect(set.json().details).toEqual([{ path: 'message', message: expect.stringContaining(named) }]);
      expect(commitCount(service.dir!)).toBe(commits);
    },
  );

  it('may still hold newlines, tabs and any other text', async () => {
    const message = 'Label team-b gold\n\n\tReviewed by Zoë ✓ — עברית and العربية as they are';
    const res = await send(
      service,
      'PATCH',
      '/namespaces/team-b',
      { labels: { tier: 'gold' } },
      { headers: { 'gitops-commit-message': encodeURIComponent(message) } },
    );
    expect(res.status, res.text).toBe(200);
  });

  it('given twice in the header is refused, though Node joins the two into one value', async () => {
    const commits = commitCount(service.dir!);
    const connection = await RawConnection.open(service.url);
    try {
      const body = JSON.stringify({ labels: { tier: 'twice' } });
      await connection.write(
        `PATCH /namespaces/team-b HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${WRITE_TOKEN}\r\ncontent-type: ` +
          `application/json\r\n` +
          `gitops-commit-message: first\r\nGitops-Commit-Message: second\r\ncontent-length: ` +
          `${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      const answer = await connection.next();
      expect(answer.status, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({
        error: 'validation_error',
        details: [{ path: 'Gitops-Commit-Message', message: 'is given more than once' }],
      });
    } finally {
      connection.socket.destroy();
    }
    expect(commitCount(service.dir!)).toBe(commits);
  });
});
