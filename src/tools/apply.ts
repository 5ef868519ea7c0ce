// `gitops-config apply <changes.json> --server <url> [--dry-run | --preview]`: sends a change
// set (the body of POST /api/v2/gitops/changes: a message and the writes) to a service in crud
// mode. --preview asks what it would do and prints the same report `diff` prints (the service
// answers in the diff's shape); --dry-run asks whether it would be stored; otherwise it is
// committed and the new revision printed. The token is GITOPS_CONFIG_TOKEN, or the content of
// --token-file (./service-client.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliIo } from './cli-io.ts';
import type { DiffFormat } from './diff-render.ts';
import { ClientUsage, sendChangeSet, tokenFrom } from './service-client.ts';
import type { Palette } from './terminal-colours.ts';

export { ClientUsage as ApplyUsage, TOKEN_VARIABLE } from './service-client.ts';

export interface ApplyOptions {
  server: string;
  tokenFile?: string;
  dryRun?: boolean;
  preview?: boolean;
  format: DiffFormat;
}

export async function applyChanges(file: string, options: ApplyOptions, io: CliIo, palette: Palette): Promise<number> {
  const body = changeSetText(resolve(io.cwd, file));
  const token = tokenFrom(options.tokenFile, io);
  return sendChangeSet(options.server, token, body, options, io, palette);
}

/** The file as it is: the service checks its shape and names every problem of it. It must be JSON to be sent. */
function changeSetText(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ClientUsage(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new ClientUsage(`${path} is not JSON: ${(error as Error).message}`);
  }
  return text;
}
