// The one way the UI talks to the service: the public API on this page's own origin, like any
// other client, with the token as `Authorization: Bearer`. No cookies are sent or kept (the
// API is token-only), and a path that is not on this origin is refused before any request.

export interface TokenSource {
  /** The bearer token to send, or undefined when nobody is signed in. */
  token(): string | undefined;
}

export interface ApiResponse {
  status: number;
  ok: boolean;
  headers: Headers;
  /** The body exactly as served (after the browser undid gzip). */
  bytes: Uint8Array;
  text: string;
}

/** A non-2xx answer, with the service's error code and message when it sent its JSON error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** A JSON body, for POST. */
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Send no token even when signed in (public endpoints, or checking a token first). */
  token?: string | null;
}

export class ApiClient {
  readonly #tokens: TokenSource;
  readonly #onUnauthorized: (() => void) | undefined;

  /** `onUnauthorized` is told when the service refuses the signed-in token (401, see tokenRefused). */
  constructor(tokens: TokenSource, onUnauthorized?: () => void) {
    this.#tokens = tokens;
    this.#onUnauthorized = onUnauthorized;
  }

  /** Any answer, whatever its status; throws only when no answer came (network, abort). */
  async request(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not a path on this origin: ${path}`);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = options.token === undefined ? this.#tokens.token() : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(path, {
      method: options.method ?? 'GET',
      body: options.body,
      headers,
      signal: options.signal,
      credentials: 'omit',
      redirect: 'error',
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const refused = tokenRefused(response.status, response.headers.get('www-authenticate'));
    if (refused && options.token === undefined && token) this.#onUnauthorized?.();
    return {
      status: response.status,
      ok: response.ok,
      headers: response.headers,
      bytes,
      text: new TextDecoder().decode(bytes),
    };
  }

  /** The parsed JSON of a 2xx answer; any other status becomes an ApiError. */
  async json<T>(path: string, options: RequestOptions = {}): Promise<{ data: T; response: ApiResponse }> {
    const response = await this.request(path, options);
    if (!response.ok) throw errorOf(response);
    return { data: JSON.parse(response.text) as T, response };
  }
}

/**
 * Whether an answer refuses the token itself: a 401, but not one whose challenge says
 * `insufficient_scope` — the service's answer to its read token on a write, a valid token
 * that may read on, so no reason to sign out.
 */
export function tokenRefused(status: number, challenge: string | null): boolean {
  return status === 401 && !/\berror="insufficient_scope"/.test(challenge ?? '');
}

export function errorOf(response: ApiResponse): ApiError {
  try {
    const body = JSON.parse(response.text) as { error?: unknown; message?: unknown };
    if (typeof body.message === 'string')
      return new ApiError(response.status, typeof body.error === 'string' ? body.error : undefined, body.message);
  } catch {
    // Not the service's JSON error body (a proxy's page): the status says enough.
  }
  return new ApiError(response.status, undefined, `the service answered ${response.status}`);
}
