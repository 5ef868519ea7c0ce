// Who is asking, once authenticated
import type { Role } from '../../domain/writes/write-request.ts';

export type CallerKind = 'service' | 'cluster' | 'person' | 'anonymous';
export interface Caller {
  kind: CallerKind;
  /** service: 'read-token' | 'write-token'; cluster: the cluster id; person: display name; anonymous: '' */
  name: string;
  email?: string; // person
  roles: ReadonlySet<Role>;
  /** For a cluster credential: the clusters it may read (their ids); undefined = no limit. */
  clusters?: readonly string[];
}
export interface PersonVerifier {
  /**
   * A verified person, or throws PersonTokenInvalid (→401) or IssuerUnavailable (→503 unavailable naming the issuer).
   */
  verify(token: string): Promise<Caller>;
}
export class PersonTokenInvalid extends Error {}
export class IssuerUnavailable extends Error {}
