// The two services of the rollout benchmark: one generated Git fleet (scripts/generate-repo.ts,
// packed as a fresh clone is), cloned once, and the rollout record (./rollout-record.ts)
// committed in one of the two clones with its first step released. Each clone is served
// read-only by its own service process, with the event-loop probe (./event-loop-probe.ts)
// preloaded, so that the two differ in the rollout and nothing else.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git.ts';
import { type NodeProcess, PROJECT_ROOT, SERVICE_MAIN, startNodeProcess, untilReady } from './node-process.ts';
import { ROLLOUT_FILE, rolloutYaml } from './rollout-record.ts';
import { type Fleet, generateFleet, MAX_OPEN_FILES, removeFleet, serviceEnv } from './scale/fleet.ts';

export type Side = 'rollout' | 'no rollout';
export const SIDES: readonly Side[] = ['rollout', 'no rollout'];

export interface RolloutFleet {
  fleet: Fleet;
  /** The checkout each side serves. */
  repos: Record<Side, string>;
  /** The file each side's probe writes. */
  probes: Record<Side, string>;
}

export async function prepareRolloutFleet(clusters: number): Promise<RolloutFleet> {
  const fleet = await generateFleet(clusters, 25);
  const repos = { rollout: join(fleet.root, 'rollout'), 'no rollout': join(fleet.root, 'no-rollout') };
  for (const side of SIDES) git(fleet.root, 'clone', '-q', fleet.repo, repos[side]);
  removeFleet({ ...fleet, root: fleet.repo }); // the clones hold everything; the generated checkout goes
  mkdirSync(join(repos.rollout, 'rollouts'));
  writeFileSync(join(repos.rollout, ROLLOUT_FILE), rolloutYaml(clusters, 1));
  git(repos.rollout, 'add', ROLLOUT_FILE);
  git(repos.rollout, 'commit', '-q', '-m', `rollout ${ROLLOUT_FILE}: step 1 released`);
  const probes = {
    rollout: join(fleet.root, 'probe-rollout.jsonl'),
    'no rollout': join(fleet.root, 'probe-no-rollout.jsonl'),
  };
  return { fleet, repos, probes };
}

/** Both services, started one after the other (each start is most of a core for seconds). */
export async function startServices(fleet: RolloutFleet): Promise<Record<Side, NodeProcess>> {
  const probe = join(PROJECT_ROOT, 'scripts', 'bench', 'event-loop-probe.ts');
  const start = (side: Side) =>
    startNodeProcess(SERVICE_MAIN, {
      env: serviceEnv(fleet.repos[side], {
        NODE_OPTIONS: `${process.env.BENCH_NODE_OPTIONS ?? ''} --import ${probe}`,
        BENCH_PROBE_FILE: fleet.probes[side],
      }),
      maxOpenFiles: MAX_OPEN_FILES,
    });
  const rollout = await start('rollout');
  try {
    await untilReady(rollout);
    const none = await start('no rollout');
    await untilReady(none).catch(async (error: unknown) => {
      await none.stop();
      throw error;
    });
    return { rollout, 'no rollout': none };
  } catch (error) {
    await rollout.stop();
    throw error;
  }
}
