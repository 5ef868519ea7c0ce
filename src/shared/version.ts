// The product's version, as package.json states it: reported by `/health` and the CLI's
// `--version`, the same from a checkout and from an installed package.
import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from './package-root.ts';

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string }
).version;
