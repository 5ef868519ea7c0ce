// People whose issuer sends names and e-mails that no commit should hold, writing through the
// real server with tokens of a real issuer on loopback (test/helpers/oidc-issuer.ts): on a
// local Git repository, and on a remote behind `git http-backend` that checks every object
// pushed to it (receive.fsckObjects, as GitHub and GitLab do). The commit's author, the audit
// line, the history of revisions and whoami show the same cleaned name; an e-mail that is not
// an address, or that the issuer did not vouch for with the boolean true, is left out; and
// `git fsck --full` finds nothing wrong.
import { spawnSync } from 'node:child_process';
import type { JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLines, type CrudService, gitOut, send, startCrud } from '../../helpers/crud.ts';
import { request } from '../../helpers/http.ts';
import { AUDIENCE, type OidcIssuer, startOidcIssuer } from '../../helpers/oidc-issuer.ts';
import { READ_TOKEN } from '../../helpers/service.ts';

/** What each person's issuer says, and what every record of their write must show. */
const PEOPLE: { claims: JWTPayload; name: string; email: string | null }[] = [
  // A NUL is `nulInHeader` to git fsck; ESC and BEL would reach the terminal of whoever runs git log.
  {
    claims: { name: 'Mal\u0000lory\u001b[2J\u0007 \tAdmin\u202e', email: 'mal\u0000lory@example.com' },
    name: 'Mallory[2J Admin',
    email: null,
  },
  // A line break in a header would begin a header line of its own.
  {
    claims: { name: 'Eve\r\ncommitter Someone Else', email: 'eve@example.com' },
    name: 'Eve committer Someone Else',
    email: 'eve@example.com',
  },
  // Nothing but controls in the name: the next claim names the person; "true" as a string vouches for nothing.
  {
    claims: { name: '\u0000\u0085', preferred_username: 'bob\u2067', email: 'bob@example.com', email_verified: 'true' },
    name: 'bob',
    email: null,
  },
  { claims: { name: 'Rtl \u202eevil\u202c Name', email: 'not an address' }, name: 'Rtl evil Name', email: null },
];

let issuer: OidcIssuer;
beforeAll(async () => {
  issuer = await startOidcIssuer();
});
afterAll(() => issuer?.close());

/** What `git fsck --full` says of a repository: its exit status and everything it printed. */
function fsck(gitDirArgs: string[]): { status: number | null; output: string } {
  const result = spawnSync('git', [...gitDirArgs, 'fsck', '--full'], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.each(['git', 'git-remote'] as const)('names and e-mails of people on the %s backend', (backend) => {
  let service: CrudService;
  let gitDir: string[];
  beforeAll(async () => {
    service = await startCrud(backend, {
      OIDC_ISSUER_URL: issuer.url,
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_WRITE_GROUPS: 'platform-admins',
    });
    if (backend === 'git') gitDir = ['-C', service.dir!];
    else {
      const bare = service.prepared.remote!.server.path(service.prepared.remote!.name);
      gitDir = ['--git-dir', bare];
      // The host checks every object it receives, and refuses a push with a malformed one.
      gitOut(process.cwd(), ...gitDir, 'config', 'receive.fsckObjects', 'true');
    }
  });
  afterAll(() => service?.close());

  it(
    'leave no control or bidirectional character in the commit, the audit line, the history or whoami; git fsck ' +
      'stays clean',
    async () => {
      const revisions: string[] = [];
      for (const [i, person] of PEOPLE.entries()) {
        const token = await issuer.sign({ sub: `user-${i}`, ...person.claims });
        const res = await send(service, 'PATCH', '/namespaces/team-b', { labels: { step: String(i) } }, { token });
        expect(res.status, res.text).toBe(200);
        revisions.push(String(res.headers['x-config-revision']));
        expect(gitOut(process.cwd(), ...gitDir, 'log', '-1', '--format=%an|%ae|%cn')).toBe(
          `${person.name}|${person.email ?? ''}|gitops-config-api`,
        );
        const audit = auditLines(service).filter((line) => line.revision_after === revisions[i]);
        expect(audit).toHaveLength(1);
        expect(audit[0].caller_name).toBe(person.name);
        expect(audit[0].caller_email).toBe(person.email ?? undefined);
        const whoami = await request(service.url, '/api/v2/gitops/whoami', { token });
        expect(whoami.json()).toMatchObject({ kind: 'person', name: person.name, email: person.email });
      }
      const history = (await request(service.url, '/api/v2/gitops/revisions', { token: READ_TOKEN })).json() as {
        revisions: { revision: string; author: unknown }[];
      };
      for (const [i, person] of PEOPLE.entries()) {
        expect(history.revisions.find((e) => e.revision === revisions[i])?.author).toEqual({
          name: person.name,
          email: person.email,
        });
      }
      const checked = fsck(gitDir);
      expect(checked.output).not.toMatch(/error|warning|nulInHeader|bad/i);
      expect(checked.status).toBe(0);
    },
  );
});
