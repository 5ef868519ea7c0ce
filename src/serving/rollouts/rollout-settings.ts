// The settings of rollouts (docs/rollouts.md), read with the rest of the configuration.
import { COMPONENT_PLACEHOLDER } from '../../domain/rollouts/release-reports.ts';
import { durationMs } from '../../shared/duration.ts';
import { ConfigError, type Env } from '../../shared/secret-settings.ts';

export interface RolloutSettings {
  /**
   * ROLLOUT_OFFLINE_AFTER: a released cluster with no poll of any endpoint for this long is `offline` to its rollout.
   */
  rolloutOfflineAfterMs: number;
  /** ROLLOUT_AUTO_ADVANCE: the service commits the next step of a ready rollout itself (crud mode only). */
  rolloutAutoAdvance: boolean;
  /** ROLLOUT_RELEASE_NAME: the HelmRelease whose events report a component's release; `{component}` is its id. */
  rolloutReleaseName: string;
}

/** A Kubernetes object name, with `{component}` where the component's id goes. */
const RELEASE_NAME = /^(?:[a-z0-9.-]|\{component\})+$/;

/**
 * ROLLOUT_OFFLINE_AFTER (default 30m), ROLLOUT_AUTO_ADVANCE (default on in crud mode, off
 * otherwise) and ROLLOUT_RELEASE_NAME (default `{component}`). In read-only mode the service cannot
 * commit, so ROLLOUT_AUTO_ADVANCE=on there stops the start rather
 * than being quietly ignored: an operator who asked for it would wait for releases that never come.
 */
export function rolloutSettingsFrom(env: Env, apiMode: 'read-only' | 'crud'): RolloutSettings {
  const offline = env.ROLLOUT_OFFLINE_AFTER || '30m';
  const ms = durationMs(offline);
  if (ms === undefined || Math.round(ms) <= 0) {
    throw new ConfigError(`ROLLOUT_OFFLINE_AFTER=${offline} is not a positive duration; use e.g. 10m, 30m or 1h`);
  }
  const advance = env.ROLLOUT_AUTO_ADVANCE || (apiMode === 'crud' ? 'on' : 'off');
  if (advance !== 'on' && advance !== 'off') {
    throw new ConfigError(`ROLLOUT_AUTO_ADVANCE=${advance} is not valid; use one of: on, off`);
  }
  if (advance === 'on' && apiMode !== 'crud') {
    throw new ConfigError(
      'ROLLOUT_AUTO_ADVANCE=on needs API_MODE=crud: a read-only service does not commit; ' +
        'release the next step with `gitops-config rollout advance` and a pull request, or leave the setting out',
    );
  }
  const releaseName = env.ROLLOUT_RELEASE_NAME || COMPONENT_PLACEHOLDER;
  if (!RELEASE_NAME.test(releaseName) || releaseName.length > 253) {
    throw new ConfigError(
      `ROLLOUT_RELEASE_NAME=${releaseName} is not a HelmRelease name: lower-case letters, digits, - and ., with ` +
        `${COMPONENT_PLACEHOLDER} where the component's id goes ` +
        `(e.g. ${COMPONENT_PLACEHOLDER} or platform-${COMPONENT_PLACEHOLDER})`,
    );
  }
  return {
    rolloutOfflineAfterMs: Math.round(ms),
    rolloutAutoAdvance: advance === 'on',
    rolloutReleaseName: releaseName,
  };
}
