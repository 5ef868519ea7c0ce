// A person's Bearer token (an OIDC ID token or a JWT access token), verified with jose: the
// signature with one of the issuer's published keys, `iss`, `aud`, `exp` and `nbf` with a
// minute of leeway for clocks that disagree (and `iat` no later than that), its `typ` when it
// has one (./token-checks.ts). Only asymmetric algorithms are accepted: `none`
// carries no signature, and an HMAC algorithm would let anyone who knows the issuer's public
// key (everyone) sign tokens with it as the shared secret.
import { errors, jwtVerify, type JWTVerifyResult } from 'jose';
import type { Logger } from 'pino';
import { type Caller, IssuerUnavailable, type PersonVerifier, PersonTokenInvalid } from '../caller.ts';
import { IssuerConnection } from './issuer-connection.ts';
import type { OidcSettings } from './oidc-settings.ts';
import { personFromClaims } from './person-claims.ts';
import { issuedAtProblem, tokenTypeProblem } from './token-checks.ts';

export const PERSON_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** Clocks of the issuer and the service may disagree this much (seconds). */
export const CLOCK_LEEWAY_SECONDS = 60;

export class OidcPersonVerifier implements PersonVerifier {
  readonly #settings: OidcSettings;
  readonly #connection: IssuerConnection;
  readonly #log: Logger;

  constructor(settings: OidcSettings, log: Logger) {
    this.#settings = settings;
    this.#log = log;
    this.#connection = new IssuerConnection(settings.issuerUrl, { jwksCooldownMs: settings.jwksCooldownMs, log });
  }

  start(): void {
    this.#connection.start();
  }

  close(): void {
    this.#connection.close();
  }

  async verify(token: string): Promise<Caller> {
    const keys = await this.#connection.keys();
    let verified: JWTVerifyResult;
    try {
      verified = await jwtVerify(token, keys, {
        issuer: this.#settings.issuerUrl,
        audience: this.#settings.audiences,
        algorithms: PERSON_TOKEN_ALGORITHMS,
        clockTolerance: CLOCK_LEEWAY_SECONDS,
        requiredClaims: ['exp'],
      });
    } catch (error) {
      if (error instanceof IssuerUnavailable) {
        this.#log.warn(
          { issuer: this.#settings.issuerUrl, why: error.message },
          'a person token could not be checked: the issuer is unavailable',
        );
        throw new IssuerUnavailable(
          `the OIDC issuer ${this.#settings.issuerUrl} is unavailable: ${error.message}; person tokens are refused ` +
            `until it is back`,
        );
      }
      throw this.#invalid(invalidReason(error));
    }
    const { payload, protectedHeader } = verified;
    const why =
      tokenTypeProblem(protectedHeader.typ) ?? issuedAtProblem(payload.iat, Date.now() / 1000, CLOCK_LEEWAY_SECONDS);
    if (why !== undefined) throw this.#invalid(why);
    return personFromClaims(payload, this.#settings);
  }

  #invalid(why: string): PersonTokenInvalid {
    // The request log has the 401 already; why, for whoever looks into it.
    this.#log.debug({ why }, 'a person token was refused');
    return new PersonTokenInvalid(`the person token is not valid: ${why}`);
  }
}

/** Why jose refused a token, in words that help its holder (never the token itself). */
function invalidReason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'it has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `the "${error.claim}" claim is wrong (${error.reason})`;
  if (error instanceof errors.JOSEAlgNotAllowed)
    return `its algorithm is not accepted (only ${PERSON_TOKEN_ALGORITHMS.join(', ')})`;
  if (error instanceof errors.JWKSNoMatchingKey) return "no key of the issuer has the token's key id (kid)";
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not verify';
  if (error instanceof errors.JOSEError) return error.message;
  return 'it is not a JWT';
}
