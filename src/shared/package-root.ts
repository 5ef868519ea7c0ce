// The folder of this package (the one holding its package.json and schemas/), found by walking
// up from this module: src/ in a checkout, dist/src/ in an installed package, so the same code
// finds the same files from both.
import { existsSync, readFileSync } from 'node:fs';

const PACKAGE_NAME = 'gitops-config-api';

function findPackageRoot(): URL {
  for (let folder = new URL('.', import.meta.url), depth = 0; depth < 4; folder = new URL('..', folder), depth++) {
    const manifest = new URL('package.json', folder);
    if (!existsSync(manifest)) continue;
    try {
      if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return folder;
    } catch {
      // A package.json that is not this package's: keep walking up.
    }
  }
  throw new Error(
    `the folder of the ${PACKAGE_NAME} package (its package.json) was not found above ${import.meta.url}`,
  );
}

export const PACKAGE_ROOT = findPackageRoot();
