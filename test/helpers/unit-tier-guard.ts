// Set up before every file of the unit tier (vitest.config.ts, project "unit"): a unit test
// starts nothing, no child process (git, a shell, a browser) and no server, so every way of
// starting one throws here, naming itself. A test that needs one fails at once instead of
// quietly making `npm run test:unit` slow; it belongs in the integration tier (a file named
// `<name>.test.ts`). test/architecture/test-tiers.unit.test.ts checks the same from the imports.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

export const UNIT_TIER_REFUSAL =
  'a unit test (*.unit.test.ts) starts no process and no server; make it an integration test (*.test.ts)';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

for (const name of STARTERS) {
  (childProcess as unknown as Record<string, unknown>)[name] = () => {
    throw new Error(`child_process.${name}: ${UNIT_TIER_REFUSAL}`);
  };
}
// Every server of Node (http, https, tls, net) listens through net.Server.
net.Server.prototype.listen = function listen(): never {
  throw new Error(`server.listen: ${UNIT_TIER_REFUSAL}`);
};
// Named imports of node:child_process (`import { spawn } ...`) see the replacements too.
syncBuiltinESMExports();
