// Rules of rollouts against the revision they are in (the rules of one record on its own are
// in rollout-normalize.ts):
//   dangling_reference       the catalog entry it changes exists (error; deleting an entry a
//                            rollout names is this problem too)
//   set_unchanged            `set` gives some field another value than the catalog's (error)
//   duplicate_rollout        one rollout per component at a time (error, on all but the first by id)
//   released_out_of_range    `released` is at most the number of steps (error)
//   empty_wave               a wave has a cluster to change (warning)
//   wave_cluster_not_member  a cluster a wave names exists and uses the component (warning)
//   members_in_no_wave       every cluster using the component is in a wave (warning)
//   reports_need_rollout_id  with require_reports, `set` names the chart version a report carries
//                            (oci_tag or component_version); else only events naming the rollout
//                            in metadata.rollout report (warning; release-reports.ts)
// A problem is placed in the rollout record (collection rollouts); the file it came from is
// added where problems get their files (problem.ts withSources), as for the other kinds.
import { compareIds } from '../ids.ts';
import { type Problem, problem, type ProblemLocation } from '../problem.ts';
import { planRollout } from './rollout-plan.ts';
import { changedFields, type Rollout, rolloutFilePath, ROLLOUTS, SET_FIELDS } from './rollout-record.ts';
import type { RolloutSources } from './rollout-view.ts';
import { count, listed } from './rollout-words.ts';

/** The most cluster ids a problem lists before it says how many more there are. */
const LISTED = 20;

/** Where a problem of a rollout is: the record, and the field. */
export function rolloutAt(id: string, field: string): ProblemLocation {
  return { record: { collection: ROLLOUTS, id }, field };
}

/** What makes a problem of a rollout the same problem in another revision: the rollout and what it is about. */
function identity(rollout: Rollout, what: string): string {
  return `${rolloutFilePath(rollout.id)} ${what}`;
}

const warning = (p: Problem): Problem => ({ ...p, severity: 'warning' });

/** Every rule of every rollout of the revision. */
export function checkRollouts(sources: RolloutSources): Problem[] {
  return [...sources.rollouts.values()].flatMap((rollout) => checkRollout(sources, rollout));
}

/** The rules of the rollouts that change a catalog entry: what a write of that entry can break. */
export function checkRolloutsOfComponent(sources: RolloutSources, component: string): Problem[] {
  return rolloutsOfComponent(sources, component).flatMap((rollout) => checkRollout(sources, rollout));
}

/** The rollouts that change the catalog entry `component`, by id. */
export function rolloutsOfComponent(sources: RolloutSources, component: string): Rollout[] {
  return [...sources.rollouts.values()].filter((r) => r.component === component).sort((a, b) => compareIds(a.id, b.id));
}

/** Every rule of one rollout against the revision. */
export function checkRollout(sources: RolloutSources, rollout: Rollout): Problem[] {
  const entry = sources.platform_components.get(rollout.component);
  if (entry === undefined) {
    const message = `changes the catalog entry "${rollout.component}", which does not exist`;
    return [
      problem('dangling_reference', rolloutAt(rollout.id, '/component'), message, {
        refersTo: { collection: 'platform_components', id: rollout.component },
        identity: identity(rollout, `component:${rollout.component}`),
      }),
    ];
  }
  const problems: Problem[] = [];
  const first = rolloutsOfComponent(sources, rollout.component)[0];
  if (first !== rollout) {
    const message =
      `changes the catalog entry "${rollout.component}", as the rollout "${first.id}" does already: ` +
      'one rollout per component at a time';
    problems.push(
      problem('duplicate_rollout', rolloutAt(rollout.id, '/component'), message, {
        identity: identity(rollout, 'duplicate'),
      }),
    );
  }
  if (changedFields(rollout.set, entry).length === 0) {
    const values = SET_FIELDS.filter((f) => rollout.set[f] !== undefined).map((f) => `${f} ${rollout.set[f]}`);
    const message =
      `sets only values the catalog entry "${entry.id}" has already (${values.join(', ')}): ` +
      'the rollout would change nothing';
    problems.push(
      problem('set_unchanged', rolloutAt(rollout.id, '/set'), message, {
        identity: identity(rollout, 'set'),
      }),
    );
  }
  const { oci_tag: tag, component_version: version } = rollout.set;
  if (rollout.require_reports && tag === undefined && version === undefined) {
    const message =
      'requires reports, but its set changes neither oci_tag nor component_version, the chart version a ' +
      "HelmRelease's events carry: a cluster counts only once an event names the rollout in metadata.rollout " +
      `(the HelmRelease's annotation event.toolkit.fluxcd.io/rollout: ${rollout.id})`;
    problems.push(
      warning(
        problem('reports_need_rollout_id', rolloutAt(rollout.id, '/require_reports'), message, {
          identity: identity(rollout, 'reports'),
        }),
      ),
    );
  }
  problems.push(...planProblems(sources, rollout));
  return problems;
}

function planProblems(sources: RolloutSources, rollout: Rollout): Problem[] {
  const problems: Problem[] = [];
  const plan = planRollout(rollout, sources.clusters);
  if (rollout.released > plan.steps.length) {
    const steps = count(plan.steps.length, 'step');
    const message = `is ${rollout.released}, but the rollout has ${steps}: 0 to ${plan.steps.length}`;
    problems.push(
      problem('released_out_of_range', rolloutAt(rollout.id, '/released'), message, {
        identity: identity(rollout, 'released'),
      }),
    );
  }
  rollout.waves.forEach((wave, index) => {
    wave.clusters.forEach((id, j) => {
      const cluster = sources.clusters.get(id);
      if (cluster !== undefined && cluster.platform_components.some((ref) => ref.id === rollout.component)) return;
      const why = cluster === undefined ? 'which does not exist' : `which does not use "${rollout.component}"`;
      const at = rolloutAt(rollout.id, `/waves/${index}/clusters/${j}`);
      problems.push(
        warning(
          problem('wave_cluster_not_member', at, `names the cluster "${id}", ${why}`, {
            identity: identity(rollout, `wave:${wave.name}:cluster:${id}`),
          }),
        ),
      );
    });
    if (plan.waves[index].members.length > 0) return;
    const message =
      `the wave "${wave.name}" has no cluster to change: no cluster that uses "${rollout.component}" ` +
      'is selected by it and not by an earlier wave';
    problems.push(
      warning(
        problem('empty_wave', rolloutAt(rollout.id, `/waves/${index}`), message, {
          identity: identity(rollout, `wave:${wave.name}`),
        }),
      ),
    );
  });
  if (plan.unassigned.length > 0) {
    const one = plan.unassigned.length === 1;
    const message =
      `${count(plan.unassigned.length, 'cluster')} ${one ? 'uses' : 'use'} "${rollout.component}" but ` +
      `${one ? 'is' : 'are'} in no wave: the rollout never changes ${one ? 'it' : 'them'}, and completing it does: ` +
      listed(plan.unassigned, LISTED);
    problems.push(
      warning(
        problem('members_in_no_wave', rolloutAt(rollout.id, '/waves'), message, {
          identity: identity(rollout, 'unassigned'),
        }),
      ),
    );
  }
  return problems;
}
