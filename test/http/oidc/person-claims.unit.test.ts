// Who a verified token names and what its groups allow (src/http/oidc/person-claims.ts). The
// verification itself is tested against a real issuer in test/http/oidc/people.test.ts.
import { describe, expect, it } from 'vitest';
import { groupsOf, personFromClaims, rolesOf } from '../../../src/http/auth/oidc/person-claims.ts';

const rules = { groupsClaim: 'groups', readGroups: ['readers'], writeGroups: ['admins'] };

describe('the person a token names', () => {
  it('is the name and e-mail claims', () => {
    const claims = {
      sub: 's1',
      name: 'Alice Admin',
      preferred_username: 'alice',
      email: 'alice@example.com',
      email_verified: true,
      groups: ['admins'],
    };
    expect(personFromClaims(claims, rules)).toEqual({
      kind: 'person',
      name: 'Alice Admin',
      email: 'alice@example.com',
      roles: new Set(['read', 'write']),
    });
  });

  it('falls back to preferred_username, then sub, for the name', () => {
    expect(personFromClaims({ sub: 's1', preferred_username: 'alice', name: '  ' }, rules).name).toBe('alice');
    expect(personFromClaims({ sub: 's1', name: 42 }, rules).name).toBe('s1');
    // A name of nothing but control characters says nothing either.
    expect(personFromClaims({ sub: 's1', name: '\u0000\u001b\u202e', preferred_username: 'alice' }, rules).name).toBe(
      'alice',
    );
  });

  it('keeps the e-mail only when email_verified is the boolean true', () => {
    for (const verified of [false, 'true', 'false', 'no', 1, 0, null, {}, undefined]) {
      const person = personFromClaims({ sub: 's1', email: 'mallory@example.com', email_verified: verified }, rules);
      expect(person, JSON.stringify(verified)).not.toHaveProperty('email');
    }
    expect(personFromClaims({ sub: 's1', email: ['a@example.com'], email_verified: true }, rules)).not.toHaveProperty(
      'email',
    );
    expect(personFromClaims({ sub: 's1', email: 'a@example.com', email_verified: true }, rules).email).toBe(
      'a@example.com',
    );
  });

  it('takes out control and bidirectional characters of the name; an e-mail that is not an address is left out', () => {
    const person = personFromClaims(
      {
        sub: 's1',
        name: 'Mal\u0000lory \u001b[31mRed\u0007\tOne\u202e\u2066x\u0085<y>\u007f',
        email: 'mal\u0000@example.com',
        email_verified: true,
      },
      rules,
    );
    expect(person.name).toBe('Mallory [31mRed Onex y');
    expect(person).not.toHaveProperty('email');
    for (const email of [
      'not an address',
      'a@b@example.com',
      'a@',
      '@example.com',
      'a@example..com',
      'a@example.com\u202e',
      'a\t@example.com',
      '<a@example.com>',
    ]) {
      expect(
        personFromClaims({ sub: 's1', email, email_verified: true }, rules),
        JSON.stringify(email),
      ).not.toHaveProperty('email');
    }
    expect(personFromClaims({ sub: 's1', email: ' a.b+c@mail.example.com ', email_verified: true }, rules).email).toBe(
      'a.b+c@mail.example.com',
    );
  });

  it('reads the groups from the configured claim', () => {
    expect(personFromClaims({ sub: 's1', roles: ['admins'] }, { ...rules, groupsClaim: 'roles' }).roles).toEqual(
      new Set(['read', 'write']),
    );
    expect(personFromClaims({ sub: 's1', roles: ['admins'] }, rules).roles).toEqual(new Set());
  });
});

describe('groups and roles', () => {
  it('takes an array of strings (other entries ignored) or one string', () => {
    expect(groupsOf(['a', 1, null, 'b'])).toEqual(['a', 'b']);
    expect(groupsOf('a')).toEqual(['a']);
    expect(groupsOf('')).toEqual([]);
    expect(groupsOf({ a: true })).toEqual([]);
    expect(groupsOf(undefined)).toEqual([]);
  });

  it('write implies read; no read groups: every valid token reads', () => {
    expect(rolesOf(['admins'], rules)).toEqual(new Set(['read', 'write']));
    expect(rolesOf(['readers'], rules)).toEqual(new Set(['read']));
    expect(rolesOf(['sales'], rules)).toEqual(new Set());
    expect(rolesOf([], { readGroups: [], writeGroups: ['admins'] })).toEqual(new Set(['read']));
    expect(rolesOf(['admins'], { readGroups: [], writeGroups: [] })).toEqual(new Set(['read']));
  });
});
