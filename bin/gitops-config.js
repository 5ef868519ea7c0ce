#!/usr/bin/env node
// The gitops-config command (validate, inputs, diff) for config-repo CI: `npx gitops-config ...`.
// Node strips TypeScript types only outside node_modules, so an installed package runs the
// JavaScript that `npm run build` writes to dist/ (built on `npm pack` / `npm publish` by the
// prepack script); a source checkout of this repository runs src/ directly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/tools/cli.ts', import.meta.url);
const compiled = new URL('../dist/src/tools/cli.js', import.meta.url);
const installed = fileURLToPath(import.meta.url).split(/[\\/]/).includes('node_modules');

let entry;
if (!installed && existsSync(source)) entry = source;
else if (existsSync(compiled)) entry = compiled;

if (entry === undefined) {
  process.stderr.write('gitops-config: dist/ is missing; run `npm run build` in the package first\n');
  process.exitCode = 2;
} else {
  const { run } = await import(entry.href);
  process.exitCode = await run(process.argv.slice(2));
}
