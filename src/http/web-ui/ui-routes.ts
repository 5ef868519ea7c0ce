// The web UI at /ui/: its built files (./ui-files.ts), public like /health — the page holds
// no data; everything it shows comes from the API, with the token the person pastes in. Not
// on the read path: the polls under /api/v2/gitops/ never pass through here.
//
// Every answer carries a Content-Security-Policy that lets the page load only its own files
// and talk only to its own origin (`default-src 'self'`: no inline script or style, no other
// host), never be framed (`frame-ancestors 'none'`), keep its base URL (`base-uri 'none'`)
// and post forms only here; and `Referrer-Policy: no-referrer`, so that a link followed from
// the UI does not tell another site which cluster was being looked at.
//
// With sign-in through the OIDC issuer (OIDC_UI_CLIENT_ID), the page must also read the
// issuer's discovery document and exchange the code at its token endpoint: `connect-src`
// then names the issuer's origin, and nothing else. Going to the issuer's login page is a
// top-level navigation, which the policy does not govern, so `form-action` stays 'self'.
import type { Request, Response } from 'express';
import type { OidcSettings } from '../auth/oidc/oidc-settings.ts';
import type { ApiMode } from '../../store/backends/shared-settings.ts';
import { Router } from 'express';
import { acceptsGzip } from '../transport/content-coding.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { etagMatches, gzipEtag } from '../etag-match.ts';
import type { UiFile, UiFiles } from './ui-files.ts';
import { UiFiles as Files } from './ui-files.ts';

export const UI_PATH = '/ui/';

export const UI_CONTENT_SECURITY_POLICY =
  "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The policy for this service: exactly UI_CONTENT_SECURITY_POLICY, unless the UI signs people in at an issuer. */
export function uiContentSecurityPolicy(oidc: OidcSettings | undefined): string {
  if (!oidc?.ui) return UI_CONTENT_SECURITY_POLICY;
  return (
    `default-src 'self'; connect-src 'self' ${new URL(oidc.issuerUrl).origin}; frame-ancestors 'none'; base-uri ` +
    `'none'; form-action 'self'`
  );
}

/** A year: hashed file names change with their content, so a cached copy never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page itself is asked for again each time (a 304 when unchanged), so a new build shows at once. */
const REVALIDATE = 'no-cache';

/**
 * What the page needs to know of this service before it asks the API anything, served as
 * /ui/config.json: whether records are served (crud mode), whether the fleet view is kept
 * (METRICS), and where people sign in (the issuer, the UI's public client id and the scopes
 * it asks for; null: people paste a token). Public, like the page: the API's own answers and
 * the issuer's discovery document say the same to anyone who asks, and a public client has no
 * secret.
 */
export function uiSettings(config: { apiMode: ApiMode; metrics: boolean; oidc: OidcSettings | undefined }): Buffer {
  const ui = config.oidc?.ui;
  const oidc = ui ? { issuer: config.oidc!.issuerUrl, client_id: ui.clientId, scopes: ui.scopes } : null;
  return Buffer.from(JSON.stringify({ api_mode: config.apiMode, fleet_view: config.metrics, oidc }));
}

export type UiState =
  { kind: 'off' } | { kind: 'not-built' } | { kind: 'on'; files: UiFiles; contentSecurityPolicy: string };

export function uiRoutes(state: UiState): Router {
  // Strict: /ui and /ui/ are different paths (the first redirects to the second, so that the
  // page's relative URLs resolve under /ui/).
  const router = Router({ strict: true });
  router.get('/ui', (req, res) => {
    if (state.kind === 'off') throw uiOff();
    // The query goes along as it came, `?` and all.
    const queryAt = req.originalUrl.indexOf('?');
    res.redirect(301, UI_PATH + (queryAt === -1 ? '' : req.originalUrl.slice(queryAt)));
  });
  router.get(['/ui/', '/ui/*rest'], (req, res) => {
    if (state.kind === 'off') throw uiOff();
    if (state.kind === 'not-built') {
      throw new ApiError(
        'not_found',
        'the web UI is not built in this installation (dist/ui/ is missing); run npm run build',
      );
    }
    const name = fileName(req.path);
    const file = name === undefined ? undefined : state.files.file(name === '' ? 'index.html' : name);
    if (file) return send(req, res, file, state.contentSecurityPolicy);
    // Every other path under /ui/ is a view of the page (/ui/clusters/<id>): the page answers
    // it and reads the path itself. A missing hashed file stays a 404: a page of an older build
    // asking for its script must not get HTML instead.
    if (name === undefined || Files.isAsset(name))
      throw new ApiError('not_found', `no such file of the web UI: ${req.path}`);
    return send(req, res, state.files.file('index.html')!, state.contentSecurityPolicy);
  });
  router.all(['/ui', '/ui/', '/ui/*rest'], (req) => {
    if (state.kind === 'off') throw uiOff();
    throw methodNotAllowed(req.method, req.path, 'GET, HEAD');
  });
  return router;
}

function uiOff(): ApiError {
  return new ApiError('not_found', 'the web UI is off in this service (UI=off)');
}

/** The path below /ui/, decoded; undefined when it cannot be decoded. */
function fileName(path: string): string | undefined {
  try {
    return decodeURIComponent(path.slice(UI_PATH.length));
  } catch {
    return undefined;
  }
}

function send(req: Request, res: Response, file: UiFile, contentSecurityPolicy: string): void {
  const gzip = file.gzip !== undefined && acceptsGzip(req.headers['accept-encoding']);
  res.set({ 'content-security-policy': contentSecurityPolicy, 'referrer-policy': 'no-referrer' });
  res.set({
    'cache-control': file.immutable ? IMMUTABLE : REVALIDATE,
    etag: gzip ? gzipEtag(file.etag) : file.etag,
    vary: 'Accept-Encoding',
  });
  if (etagMatches(req.headers['if-none-match'], file.etag)) {
    res.status(304).end();
    return;
  }
  const body = gzip ? file.gzip : file.body;
  res.set({ 'content-type': file.contentType, 'content-length': String(body.length) });
  if (gzip) res.set('content-encoding', 'gzip');
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
