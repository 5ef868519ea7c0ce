// src/http/caller.ts — who is asking, once authenticated
export type CallerKind = 'service' | 'cluster' | 'person' | 'anonymous';
export type Role = 'read' | 'write';
export interface Caller {
  kind: CallerKind;
  /** service: 'read-token' | 'write-token'; cluster: the cluster id; person: display name; anonymous: '' */
  name: string;
  email?: string;          // person
  roles: ReadonlySet<Role>; // cluster: {'read'} but limited by `clusterIds`
  /** For a cluster credential: the clusters it may read (their ids); undefined = no limit. */
  clusters?: readonly string[];
}

/** Verifies a person's OIDC token (a JWT sent as Bearer). */
export interface PersonVerifier {
  /** A verified person, or throws a typed error: PersonTokenInvalid (→401) or IssuerUnavailable (→503 unavailable naming the issuer). */
  verify(token: string): Promise<Caller>;
}

/** The person's token is not valid: bad signature, wrong issuer or audience, expired, a refused algorithm. */
export class PersonTokenInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PersonTokenInvalid';
  }
}

/** The issuer's discovery document or keys cannot be fetched now, so no person's token can be checked. */
export class IssuerUnavailable extends Error {
  readonly issuer: string;

  constructor(issuer: string, message: string) {
    super(message);
    this.name = 'IssuerUnavailable';
    this.issuer = issuer;
  }
}
