#!/usr/bin/env node
// The gitops-config command (validate, inputs, diff) for config-repo CI: `npx gitops-config ...`.
// Node strips TypeScript types only outside node_modules (and Node 20 not at all), so an
// installed package runs the JavaScript that `npm run build` writes to dist/ (built by the
// prepare script, which npm runs for `npm pack`, `npm publish` and installs from Git); a source
// checkout of this repository runs src/ directly on a Node that strips types (22.18 and later).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/tools/cli.ts', import.meta.url);
const compiled = new URL('../dist/src/tools/cli.js', import.meta.url);
const installed = fileURLToPath(import.meta.url).split(/[\\/]/).includes('node_modules');
const stripsTypes = Boolean(process.features.typescript);

let entry;
if (!installed && stripsTypes && existsSync(source)) entry = source;
else if (existsSync(compiled)) entry = compiled;

if (entry === undefined) {
  process.stderr.write('gitops-config: dist/ is missing; run `npm run build` in the package first\n');
  process.exitCode = 2;
} else {
  // The command's modules compiled once are kept in Node's compile cache (see src/main.ts): a
  // CI job running validate, inputs and diff one after another starts each about twice as fast.
  module.enableCompileCache?.();
  const { run } = await import(entry.href);
  process.exitCode = await run(process.argv.slice(2));
}
