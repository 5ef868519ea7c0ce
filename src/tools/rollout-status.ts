// `gitops-config rollout list` and `rollout status <id>`: where the rollouts of a service
// stand, read from GET /api/v2/gitops/rollouts and /rollouts/{id} (a token that reads the
// whole fleet) and printed by ./rollout-render.ts.
import type { RolloutDetail, RolloutList } from '../domain/rollouts/rollout-shapes.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS } from './exit-codes.ts';
import { type RolloutFormat, renderRolloutDetail, renderRolloutList } from './rollout-render.ts';
import { call, refusal, serviceUrl, tokenFrom } from './service-client.ts';
import type { Palette } from './terminal-colours.ts';

export const ROLLOUTS_STATUS_PATH = '/api/v2/gitops/rollouts';

export interface ServiceOptions {
  server: string;
  tokenFile?: string;
}

export type StatusAnswer<T> = { ok: true; value: T } | { ok: false; exitCode: number };

/** The service's status of one rollout (`id`) or of all; a refusal or an unknown id is written to stderr. */
export async function readStatus(id: string, options: ServiceOptions, io: CliIo): Promise<StatusAnswer<RolloutDetail>>;
export async function readStatus(id: undefined, options: ServiceOptions, io: CliIo): Promise<StatusAnswer<RolloutList>>;
export async function readStatus(
  id: string | undefined,
  options: ServiceOptions,
  io: CliIo,
): Promise<StatusAnswer<unknown>> {
  const token = tokenFrom(options.tokenFile, io);
  const path = id === undefined ? ROLLOUTS_STATUS_PATH : `${ROLLOUTS_STATUS_PATH}/${encodeURIComponent(id)}`;
  const res = await call(serviceUrl(options.server, path), token, io);
  if (!res.ok) return { ok: false, exitCode: EXIT_PROBLEMS };
  if (res.status !== 200) {
    io.stderr(refusal(res.status, res.text));
    return { ok: false, exitCode: EXIT_PROBLEMS };
  }
  return { ok: true, value: JSON.parse(res.text) };
}

export async function showRollouts(
  id: string | undefined,
  options: ServiceOptions & { format: RolloutFormat },
  io: CliIo,
  palette: Palette,
): Promise<number> {
  if (id === undefined) {
    const list = await readStatus(undefined, options, io);
    if (!list.ok) return list.exitCode;
    io.stdout(renderRolloutList(list.value, options.format, palette));
    return EXIT_OK;
  }
  const detail = await readStatus(id, options, io);
  if (!detail.ok) return detail.exitCode;
  io.stdout(renderRolloutDetail(detail.value, options.format, palette));
  return EXIT_OK;
}
