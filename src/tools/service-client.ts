// How the tool talks to a running service: the token (GITOPS_CONFIG_TOKEN, or the content of
// --token-file; never an argument, which other users of the machine see), the address of a
// path on it, a request that says so plainly when the service cannot be reached, a refusal as
// lines a person reads, and a change set sent for a preview, a dry run or a commit.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DiffReport } from '../domain/diff-report.ts';
import type { CliIo } from './cli-io.ts';
import { type DiffFormat, renderDiff } from './diff-render.ts';
import { EXIT_OK, EXIT_PROBLEMS } from './exit-codes.ts';
import type { Palette } from './terminal-colours.ts';

export const TOKEN_VARIABLE = 'GITOPS_CONFIG_TOKEN';
export const CHANGES_PATH = '/api/v2/gitops/changes';

/** A command line that cannot be acted on: nothing was sent. */
export class ClientUsage extends Error {}

/** The service answered, or could not be reached (the message is written already). */
export type Answer = { ok: true; status: number; text: string; headers: Headers } | { ok: false };

export interface SendOptions {
  preview?: boolean;
  dryRun?: boolean;
  format: DiffFormat;
}

/** The stored records as POST /changes answers them. */
interface StoredAnswer {
  revision: string | null;
  unchanged: boolean;
  records: { collection: string; id: string; record: unknown; etag: string | null }[];
}

export function tokenFrom(tokenFile: string | undefined, io: CliIo): string {
  if (tokenFile !== undefined) {
    const path = resolve(io.cwd, tokenFile);
    let token: string;
    try {
      token = readFileSync(path, 'utf8').trim();
    } catch (error) {
      throw new ClientUsage(
        `cannot read the token file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (token === '') throw new ClientUsage(`the token file ${path} is empty`);
    return token;
  }
  const token = io.env[TOKEN_VARIABLE]?.trim();
  if (!token) throw new ClientUsage(`no token: set ${TOKEN_VARIABLE}, or name a file that holds it with --token-file`);
  return token;
}

/** The address of `path` on the service at `server` (which may itself sit under a path). */
export function serviceUrl(server: string, path: string, dryRun = false): URL {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new ClientUsage(
      `--server ${server} is not a URL; give the service's address, e.g. https://gitops-config.example.com`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ClientUsage(`--server ${server} is not an http or https URL`);
  const target = new URL(`${url.pathname.replace(/\/+$/, '')}${path}`, url);
  if (dryRun) target.searchParams.set('dryRun', 'All');
  return target;
}

/** One request with the token; when the service cannot be reached, says so on stderr. */
export async function call(
  url: URL,
  token: string,
  io: CliIo,
  init: { method?: string; body?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body });
    return { ok: true, status: res.status, text: await res.text(), headers: res.headers };
  } catch (error) {
    io.stderr(
      `gitops-config: cannot reach ${url.origin}: ` +
        `${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}\n`,
    );
    return { ok: false };
  }
}

/** The service's error body, as one line and one line per detail (a change set's by the write's index). */
export function refusal(status: number, text: string): string {
  let body: { error?: string; message?: string; details?: { index?: number; path: string; message: string }[] } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return `gitops-config: the service answered ${status}: ${text.slice(0, 500)}\n`;
  }
  const lines = [
    `gitops-config: the service answered ${status} ${body.error ?? ''}: ${body.message ?? text.slice(0, 500)}`,
  ];
  for (const d of body.details ?? [])
    lines.push(
      `  ${d.index === undefined ? '' : `write ${d.index}: `}${d.path === '' ? '' : `${d.path}: `}${d.message}`,
    );
  return `${lines.join('\n')}\n`;
}

/**
 * Sends a change set (the body of POST /api/v2/gitops/changes): --preview prints the report
 * `diff` prints, from the service's answer; --dry-run whether it would be stored; otherwise
 * it is committed and the new revision printed.
 */
export async function sendChangeSet(
  server: string,
  token: string,
  body: string,
  options: SendOptions,
  io: CliIo,
  palette: Palette,
): Promise<number> {
  const url = serviceUrl(server, options.preview ? `${CHANGES_PATH}/preview` : CHANGES_PATH, options.dryRun === true);
  const res = await call(url, token, io, { method: 'POST', body });
  if (!res.ok) return EXIT_PROBLEMS;
  if (res.status < 200 || res.status > 299) {
    io.stderr(refusal(res.status, res.text));
    return EXIT_PROBLEMS;
  }
  if (options.preview) {
    const report = JSON.parse(res.text) as DiffReport;
    io.stdout(renderDiff(report, options.format, palette));
    return report.publishable ? EXIT_OK : EXIT_PROBLEMS;
  }
  io.stdout(stored(JSON.parse(res.text) as StoredAnswer, res.headers.get('x-config-revision') ?? ''));
  return EXIT_OK;
}

function stored(answer: StoredAnswer, served: string): string {
  const records = answer.records
    .map((r) => `  ${r.collection}/${r.id}${r.record === null ? ' (deleted)' : ` ${r.etag}`}\n`)
    .join('');
  if (answer.revision === null)
    return `dry run: the service would store the change set on revision ${served}; nothing was stored\n${records}`;
  if (answer.unchanged) return `unchanged: revision ${answer.revision} holds these records already\n${records}`;
  return `stored: revision ${answer.revision}\n${records}`;
}
