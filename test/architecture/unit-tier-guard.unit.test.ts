// The unit tier's guard (test/helpers/unit-tier-guard.ts) is in force in every unit test file:
// starting a process or a server throws, whichever way it is asked for.
import * as childProcess from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { UNIT_TIER_REFUSAL } from '../helpers/unit-tier-guard.ts';

describe('the unit tier', () => {
  it('starts no child process', () => {
    expect(() => spawn('git', ['--version'])).toThrow(UNIT_TIER_REFUSAL);
    expect(() => execFileSync('git', ['--version'])).toThrow(UNIT_TIER_REFUSAL);
    for (const name of ['spawnSync', 'exec', 'execSync', 'execFile', 'fork'] as const) {
      expect(() => (childProcess[name] as (command: string) => unknown)('true'), name).toThrow(UNIT_TIER_REFUSAL);
    }
  });

  it('starts no server', () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(UNIT_TIER_REFUSAL);
    expect(() => createTcpServer().listen(0)).toThrow(UNIT_TIER_REFUSAL);
  });
});
