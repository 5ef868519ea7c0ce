// The service's link to its OIDC issuer: discovery, then the issuer's keys. An issuer that
// cannot be reached must not keep the service from starting (clusters poll, pipelines
// write with their tokens): discovery is tried at start in the background, again with a
// growing pause while it fails, and on demand when a person's token arrives — at most every
// few seconds, so that a flood of person tokens does not become a flood of requests to the
// issuer. Until discovery worked, person tokens are refused as "issuer unavailable".
import type { Logger } from 'pino';
import { RetryPolicy } from '../../../shared/retry.ts';
import { IssuerUnavailable } from '../caller.ts';
import { discoverIssuer } from './issuer-discovery.ts';
import { issuerKeys, type KeyLookup } from './issuer-keys.ts';

/** The shortest time between two discovery attempts made for a person's request. */
export const ON_DEMAND_PAUSE_MS = 5000;
/** The background retries: 1 s after the first failure, doubled up to a minute. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

export class IssuerConnection {
  readonly #issuer: string;
  readonly #cooldownMs: number;
  readonly #log: Logger;
  // Neither a deadline nor a number of retries: the issuer is tried again as long as the service runs.
  readonly #backoff = new RetryPolicy({ firstMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_MS });
  #keys: KeyLookup | undefined;
  #attempt: Promise<void> | undefined;
  #attemptedAt = -Infinity;
  #failure = 'not asked yet';
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(issuer: string, options: { jwksCooldownMs: number; log: Logger }) {
    this.#issuer = issuer;
    this.#cooldownMs = options.jwksCooldownMs;
    this.#log = options.log;
  }

  get issuer(): string {
    return this.#issuer;
  }

  /** Starts discovery in the background; the start of the service does not wait for it. */
  start(): void {
    void this.#discover();
  }

  /** The issuer's keys; throws IssuerUnavailable while discovery has not worked. */
  async keys(): Promise<KeyLookup> {
    if (this.#keys) return this.#keys;
    if (!this.#attempt && !this.#closed && performance.now() - this.#attemptedAt >= ON_DEMAND_PAUSE_MS)
      void this.#discover();
    // An attempt under way (in the background or just started) is waited for: the answer
    // the issuer is giving right now decides.
    if (this.#attempt) await this.#attempt;
    if (this.#keys) return this.#keys;
    throw new IssuerUnavailable(
      `the OIDC issuer ${this.#issuer} cannot be reached (${this.#failure}); person tokens are refused until it can ` +
        `be, service tokens keep working`,
    );
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #discover(): Promise<void> {
    clearTimeout(this.#timer);
    this.#attemptedAt = performance.now();
    const attempt = discoverIssuer(this.#issuer).then(
      (metadata) => {
        this.#keys = issuerKeys(metadata.jwksUri, { cooldownMs: this.#cooldownMs });
        this.#log.info(
          { issuer: this.#issuer, jwks_uri: metadata.jwksUri.href },
          'OIDC issuer discovered: person tokens are accepted',
        );
      },
      (error: unknown) => {
        this.#failure = (error as Error).message;
        if (this.#closed) return;
        const pause = this.#backoff.next()!;
        this.#log.warn(
          { issuer: this.#issuer, why: this.#failure, retry_in_ms: pause },
          'OIDC issuer discovery failed: person tokens are refused until it works',
        );
        this.#timer = setTimeout(() => void this.#discover(), pause);
        this.#timer.unref();
      },
    );
    this.#attempt = attempt.finally(() => {
      this.#attempt = undefined;
    });
    return this.#attempt;
  }
}
