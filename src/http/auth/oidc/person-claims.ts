// Who a verified token names, and what its groups let that person do. Only claims of a token
// whose signature, issuer, audience and times were checked reach this.
import type { JWTPayload } from 'jose';
import { cleanPersonName, emailAddress } from '../../../domain/writes/author-identity.ts';
import type { Caller } from '../caller.ts';
import type { Role } from '../../../domain/writes/write-request.ts';
import type { OidcSettings } from './oidc-settings.ts';

export type GroupRules = Pick<OidcSettings, 'groupsClaim' | 'readGroups' | 'writeGroups'>;

/**
 * The person: the first of `name`, `preferred_username` and `sub` that still says something
 * once cleaned (../../domain/writes/author-identity.ts), and the `email` claim when it is an
 * address the issuer vouches for.
 */
export function personFromClaims(claims: JWTPayload, rules: GroupRules): Caller {
  // Only the boolean true vouches for an address: "false", "no", 0, null or no claim at all
  // do not, and an address nobody verified could be anyone's, so it goes into no commit.
  const email =
    claims.email_verified === true && typeof claims.email === 'string' ? emailAddress(claims.email) : undefined;
  return {
    kind: 'person',
    name: personName(claims),
    ...(email === undefined ? {} : { email }),
    roles: rolesOf(groupsOf(claims[rules.groupsClaim]), rules),
  };
}

function personName(claims: JWTPayload): string {
  for (const claim of [claims.name, claims.preferred_username, claims.sub]) {
    const name = typeof claim === 'string' ? cleanPersonName(claim) : '';
    if (name !== '') return name;
  }
  return '';
}

/** The groups claim as issuers send it: an array of strings (other entries ignored), or a single string. */
export function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim === '' ? [] : [claim];
  if (Array.isArray(claim)) return claim.filter((group): group is string => typeof group === 'string');
  return [];
}

/** Write implies read; with no read groups configured, every valid token reads. */
export function rolesOf(
  groups: readonly string[],
  rules: Pick<GroupRules, 'readGroups' | 'writeGroups'>,
): ReadonlySet<Role> {
  const member = (wanted: readonly string[]) => groups.some((group) => wanted.includes(group));
  if (member(rules.writeGroups)) return new Set<Role>(['read', 'write']);
  if (rules.readGroups.length === 0 || member(rules.readGroups)) return new Set<Role>(['read']);
  return new Set<Role>();
}
