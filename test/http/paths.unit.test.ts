import { describe, expect, it } from 'vitest';
import {
  CHANGES_PATH,
  CHANGES_PREVIEW_PATH,
  EVENTS_PATH,
  FLEET_PATH,
  READ_PREFIX,
  REVISIONS_PATH,
  ROLLOUTS_STATUS_PATH,
  servedByExpress,
  WHOAMI_PATH,
} from '../../src/http/paths.ts';

describe('which paths under the read prefix Express serves', () => {
  const expressPaths = [FLEET_PATH, WHOAMI_PATH, REVISIONS_PATH, EVENTS_PATH, ROLLOUTS_STATUS_PATH, CHANGES_PATH];

  it("are Express's routes and the paths below rollouts and changes", () => {
    for (const path of expressPaths) expect([path, servedByExpress(path)]).toEqual([path, true]);
    for (const path of [CHANGES_PREVIEW_PATH, `${ROLLOUTS_STATUS_PATH}/r1`, `${CHANGES_PATH}/c1`])
      expect([path, servedByExpress(path)]).toEqual([path, true]);
  });

  it("leave the listing, the clusters' endpoints and unknown paths to the read path", () => {
    for (const path of [
      `${READ_PREFIX}clusters`,
      `${READ_PREFIX}clusters/`,
      `${READ_PREFIX}clusters/a.example.com/namespaces`,
      `${READ_PREFIX}clusters/a.example.com/nothing`,
      `${READ_PREFIX}clustersx`,
      `${READ_PREFIX}fleets`,
      `${READ_PREFIX}whoami/`,
      `${READ_PREFIX}`,
    ])
      expect([path, servedByExpress(path)]).toEqual([path, false]);
  });

  it('never include a path under clusters, which the read path answers without looking further', () => {
    for (const path of expressPaths) expect(path.startsWith(`${READ_PREFIX}clusters`)).toBe(false);
  });
});
