// Who a verified token names and what its groups allow (src/http/oidc/person-claims.ts). The
// verification itself is tested against a real issuer in test/http/oidc/people.test.ts.
import { describe, expect, it } from 'vitest';
import { groupsOf, personFromClaims, rolesOf } from '../../../src/http/oidc/person-claims.ts';

const rules = { groupsClaim: 'groups', readGroups: ['readers'], writeGroups: ['admins'] };

describe('the person a token names', () => {
  it('is the name and e-mail claims', () => {
    const person = personFromClaims({ sub: 's1', name: 'Alice Admin', preferred_username: 'alice', email: 'alice@example.com', groups: ['admins'] }, rules);
    expect(person).toEqual({ kind: 'person', name: 'Alice Admin', email: 'alice@example.com', roles: new Set(['read', 'write']) });
  });

  it('falls back to preferred_username, then sub, for the name', () => {
    expect(personFromClaims({ sub: 's1', preferred_username: 'alice', name: '  ' }, rules).name).toBe('alice');
    expect(personFromClaims({ sub: 's1', name: 42 }, rules).name).toBe('s1');
  });

  it('leaves out an e-mail the issuer says it has not verified, or one that is not a string', () => {
    expect(personFromClaims({ sub: 's1', email: 'mallory@example.com', email_verified: false }, rules)).not.toHaveProperty('email');
    expect(personFromClaims({ sub: 's1', email: ['a@example.com'] }, rules)).not.toHaveProperty('email');
    expect(personFromClaims({ sub: 's1', email: 'a@example.com', email_verified: true }, rules).email).toBe('a@example.com');
  });

  it('reads the groups from the configured claim', () => {
    expect(personFromClaims({ sub: 's1', roles: ['admins'] }, { ...rules, groupsClaim: 'roles' }).roles).toEqual(new Set(['read', 'write']));
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
