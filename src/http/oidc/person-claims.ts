// Who a verified token names, and what its groups let that person do. Only claims of a token
// whose signature, issuer, audience and times were checked reach this.
import type { JWTPayload } from 'jose';
import type { Caller } from '../caller.ts';
import type { Role } from '../../domain/writes/write-request.ts';
import type { OidcSettings } from './oidc-settings.ts';

export type GroupRules = Pick<OidcSettings, 'groupsClaim' | 'readGroups' | 'writeGroups'>;

export function personFromClaims(claims: JWTPayload, rules: GroupRules): Caller {
  const email = text(claims.email);
  // An address the issuer says it has not verified could be anyone's: it does not go into commits.
  const trustedEmail = email !== undefined && claims.email_verified !== false ? email : undefined;
  return {
    kind: 'person',
    name: text(claims.name) ?? text(claims.preferred_username) ?? text(claims.sub) ?? '',
    ...(trustedEmail === undefined ? {} : { email: trustedEmail }),
    roles: rolesOf(groupsOf(claims[rules.groupsClaim]), rules),
  };
}

/** The groups claim as issuers send it: an array of strings (other entries ignored), or a single string. */
export function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim === '' ? [] : [claim];
  if (Array.isArray(claim)) return claim.filter((group): group is string => typeof group === 'string');
  return [];
}

/** Write implies read; with no read groups configured, every valid token reads. */
export function rolesOf(groups: readonly string[], rules: Pick<GroupRules, 'readGroups' | 'writeGroups'>): ReadonlySet<Role> {
  const member = (wanted: readonly string[]) => groups.some((group) => wanted.includes(group));
  if (member(rules.writeGroups)) return new Set<Role>(['read', 'write']);
  if (rules.readGroups.length === 0 || member(rules.readGroups)) return new Set<Role>(['read']);
  return new Set<Role>();
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
