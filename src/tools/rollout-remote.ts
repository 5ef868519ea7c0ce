// `gitops-config rollout <action> <id> --server <url>`: the action sent to a service in crud
// mode as one change set, conditional on the ETags of the records it changes (a person or the
// service that changed the rollout meanwhile makes it fail with 412, nothing stored). The
// steps come from the service's own status of the rollout, so the tool plans with the fleet
// the service serves without reading every cluster; an advance is refused unless the status
// says `ready`, or --force says to release anyway (the commit message says it was forced).
import { compareIds } from '../domain/ids.ts';
import { goDurationMs } from '../domain/rollouts/go-duration.ts';
import type { PlatformComponent } from '../domain/records.ts';
import { type RolloutAction, rolloutAction } from '../domain/rollouts/rollout-actions.ts';
import { normalizeRollout } from '../domain/rollouts/rollout-normalize.ts';
import type { PlannedWave, RolloutPlan, RolloutStep } from '../domain/rollouts/rollout-plan.ts';
import { type Rollout, setKey } from '../domain/rollouts/rollout-record.ts';
import type { RolloutDetail } from '../domain/rollouts/rollout-shapes.ts';
import type { CliIo } from './cli-io.ts';
import { EXIT_PROBLEMS } from './exit-codes.ts';
import { refused, serviceGate } from './rollout-gate.ts';
import { readStatus, type ServiceOptions } from './rollout-status.ts';
import { call, refusal, type SendOptions, sendChangeSet, serviceUrl, tokenFrom } from './service-client.ts';
import type { Palette } from './terminal-colours.ts';

export type RemoteOptions = ServiceOptions & SendOptions;

type Fetched<T> = { ok: true; value: T; etag: string | undefined } | { ok: false; exitCode: number };

export async function actOnServer(
  id: string,
  action: RolloutAction,
  force: boolean,
  options: RemoteOptions,
  io: CliIo,
  palette: Palette,
): Promise<number> {
  const token = tokenFrom(options.tokenFile, io);
  const rolloutPath = `/rollouts/${encodeURIComponent(id)}`;
  const record = await readRecord<unknown>(options.server, token, rolloutPath, `no rollout "${id}" on the service`, io);
  if (!record.ok) return record.exitCode;
  const normalized = normalizeRollout(record.value);
  if (!normalized.ok) {
    throw new Error(`the service answered a rollout that is not one: ${JSON.stringify(normalized.problems)}`);
  }
  const rollout = normalized.record;
  const status = await readStatus(id, options, io);
  if (!status.ok) return status.exitCode;
  const detail = status.value;
  const same = detail.released === rollout.released && detail.component === rollout.component;
  if (!same || setKey(detail.set) !== setKey(rollout.set)) {
    io.stderr(`gitops-config: the service has not published the newest record of rollout ${id} yet; try again\n`);
    return EXIT_PROBLEMS;
  }
  const plan = planFromStatus(rollout, detail);
  let message: string | undefined;
  if (action.kind === 'advance') {
    const gate = serviceGate(detail);
    if (!gate.pass && !force) {
      io.stderr(`gitops-config: ${gate.why}\n`);
      return EXIT_PROBLEMS;
    }
    if (!gate.pass) {
      io.stderr(`warning: releasing the next step although rollout ${id} is ${detail.state}: ${detail.reason}\n`);
      message = `${defaultMessage(action, plan)} — forced while ${detail.state}: ${detail.reason}`;
    }
  }
  let entry: Fetched<PlatformComponent> | undefined;
  if (action.kind === 'complete') {
    const path = `/platform_components/${encodeURIComponent(rollout.component)}`;
    const missing = `no catalog entry "${rollout.component}" on the service`;
    entry = await readRecord<PlatformComponent>(options.server, token, path, missing, io);
    if (!entry.ok) return entry.exitCode;
  }
  const result = rolloutAction(action.kind === 'advance' ? { ...action, message } : action, {
    plan,
    entry: entry?.ok ? entry.value : undefined,
    etags: { rollout: record.etag, entry: entry?.ok ? entry.etag : undefined },
  });
  if (!result.ok) return refused(result.refusal, io);
  const { message: text, writes } = result.change;
  io.stderr(`change set: ${text}\n`);
  return sendChangeSet(options.server, token, JSON.stringify({ message: text, writes }), options, io, palette);
}

function defaultMessage(action: RolloutAction, plan: RolloutPlan): string {
  const result = rolloutAction(action, { plan });
  return result.ok ? result.change.message : '';
}

async function readRecord<T>(
  server: string,
  token: string,
  path: string,
  missing: string,
  io: CliIo,
): Promise<Fetched<T>> {
  const res = await call(serviceUrl(server, path), token, io);
  if (!res.ok) return { ok: false, exitCode: EXIT_PROBLEMS };
  if (res.status === 404) {
    io.stderr(`gitops-config: ${missing} (${server}${path} answered 404)\n`);
    return { ok: false, exitCode: EXIT_PROBLEMS };
  }
  if (res.status !== 200) {
    io.stderr(refusal(res.status, res.text));
    return { ok: false, exitCode: EXIT_PROBLEMS };
  }
  return { ok: true, value: JSON.parse(res.text) as T, etag: res.headers.get('etag') ?? undefined };
}

/**
 * The rollout's plan as the service made it: its steps, their waves and clusters, from the
 * status. What the status does not carry (the members in no wave) is left empty: no action
 * reads it.
 */
export function planFromStatus(rollout: Rollout, detail: RolloutDetail): RolloutPlan {
  const waveIndex = new Map(rollout.waves.map((w, i) => [w.name, i]));
  const stepOf = new Map<string, number>();
  const steps: RolloutStep[] = detail.steps.map((s, i) => {
    const index = waveIndex.get(s.wave);
    if (index === undefined) throw new Error(`the status of rollout ${rollout.id} names a wave it has not: ${s.wave}`);
    const members = s.clusters.map((c) => c.id);
    for (const id of members) stepOf.set(id, s.step);
    const opensWave = i === 0 || detail.steps[i - 1].wave !== s.wave;
    const soakMs = goDurationMs(rollout.waves[index].soak);
    return { step: s.step, wave: s.wave, waveIndex: index, opensWave, members, soakMs };
  });
  const waves: PlannedWave[] = rollout.waves.map((w) => {
    const own = steps.filter((s) => s.wave === w.name);
    return { name: w.name, members: own.flatMap((s) => s.members), steps: own.map((s) => s.step) };
  });
  return {
    rollout,
    members: [...stepOf.keys()].sort(compareIds),
    waves,
    steps,
    stepOf,
    unassigned: [],
    deadlineMs: goDurationMs(rollout.progress_deadline),
  };
}
