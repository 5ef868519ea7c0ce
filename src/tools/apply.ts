// `gitops-config apply <changes.json> --server <url> [--dry-run | --preview]`: sends a change
// set (the body of POST /api/v2/gitops/changes: a message and the writes) to a service in crud
// mode. --preview asks what it would do and prints the same report `diff` prints (the service
// answers in the diff's shape); --dry-run asks whether it would be stored; otherwise it is
// committed and the new revision printed. The token is GITOPS_CONFIG_TOKEN, or the content of
// --token-file.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DiffReport } from '../domain/revision-diff.ts';
import type { CliIo } from './cli-io.ts';
import { type DiffFormat, renderDiff } from './diff-render.ts';
import { EXIT_OK, EXIT_PROBLEMS } from './exit-codes.ts';
import type { Palette } from './terminal-colours.ts';

export const TOKEN_VARIABLE = 'GITOPS_CONFIG_TOKEN';
const CHANGES_PATH = '/api/v2/gitops/changes';

export interface ApplyOptions {
  server: string;
  tokenFile?: string;
  dryRun?: boolean;
  preview?: boolean;
  format: DiffFormat;
}

/** A command line that cannot be acted on: nothing was sent. */
export class ApplyUsage extends Error {}

/** The stored records as POST /changes answers them. */
interface StoredAnswer {
  revision: string | null;
  unchanged: boolean;
  records: { collection: string; id: string; record: unknown; etag: string | null }[];
}

export async function applyChanges(file: string, options: ApplyOptions, io: CliIo, palette: Palette): Promise<number> {
  const body = changeSetText(resolve(io.cwd, file));
  const token = tokenFrom(options.tokenFile === undefined ? undefined : resolve(io.cwd, options.tokenFile), io.env);
  const url = endpoint(options.server, options.preview ? `${CHANGES_PATH}/preview` : CHANGES_PATH, options.dryRun === true);
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  } catch (error) {
    io.stderr(`gitops-config: cannot reach ${url.origin}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}\n`);
    return EXIT_PROBLEMS;
  }
  const text = await res.text();
  if (!res.ok) {
    io.stderr(refusal(res.status, text));
    return EXIT_PROBLEMS;
  }
  if (options.preview) {
    const report = JSON.parse(text) as DiffReport;
    io.stdout(renderDiff(report, options.format, palette));
    return report.publishable ? EXIT_OK : EXIT_PROBLEMS;
  }
  const answer = JSON.parse(text) as StoredAnswer;
  io.stdout(stored(answer, res.headers.get('x-config-revision') ?? ''));
  return EXIT_OK;
}

/** The file as it is: the service checks its shape and names every problem of it. It must be JSON to be sent. */
function changeSetText(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ApplyUsage(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new ApplyUsage(`${path} is not JSON: ${(error as Error).message}`);
  }
  return text;
}

function tokenFrom(tokenFile: string | undefined, env: Record<string, string | undefined>): string {
  if (tokenFile !== undefined) {
    let token: string;
    try {
      token = readFileSync(tokenFile, 'utf8').trim();
    } catch (error) {
      throw new ApplyUsage(`cannot read the token file ${tokenFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (token === '') throw new ApplyUsage(`the token file ${tokenFile} is empty`);
    return token;
  }
  const token = env[TOKEN_VARIABLE]?.trim();
  if (!token) throw new ApplyUsage(`no token: set ${TOKEN_VARIABLE}, or name a file that holds it with --token-file`);
  return token;
}

function endpoint(server: string, path: string, dryRun: boolean): URL {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new ApplyUsage(`--server ${server} is not a URL; give the service's address, e.g. https://gitops-config.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApplyUsage(`--server ${server} is not an http or https URL`);
  const target = new URL(`${url.pathname.replace(/\/+$/, '')}${path}`, url);
  if (dryRun) target.searchParams.set('dryRun', 'All');
  return target;
}

/** The service's error body, as one line and one line per detail (a change set's by the write's index). */
function refusal(status: number, text: string): string {
  let body: { error?: string; message?: string; details?: { index?: number; path: string; message: string }[] } = {};
  try {
    body = JSON.parse(text);
  } catch {
    return `gitops-config: the service answered ${status}: ${text.slice(0, 500)}\n`;
  }
  const lines = [`gitops-config: the service answered ${status} ${body.error ?? ''}: ${body.message ?? text.slice(0, 500)}`];
  for (const d of body.details ?? []) lines.push(`  ${d.index === undefined ? '' : `write ${d.index}: `}${d.path === '' ? '' : `${d.path}: `}${d.message}`);
  return `${lines.join('\n')}\n`;
}

function stored(answer: StoredAnswer, served: string): string {
  const records = answer.records.map((r) => `  ${r.collection}/${r.id}${r.record === null ? ' (deleted)' : ` ${r.etag}`}\n`).join('');
  if (answer.revision === null) return `dry run: the service would store the change set on revision ${served}; nothing was stored\n${records}`;
  if (answer.unchanged) return `unchanged: revision ${answer.revision} holds these records already\n${records}`;
  return `stored: revision ${answer.revision}\n${records}`;
}
