// The product's version, as package.json states it: reported by `/health`, the CLI's
// `--version` and the User-Agent of Git fetches. Found by walking up from this module, so it
// is the same from src/ (a checkout) and from dist/src/ (an installed package).
import { readFileSync } from 'node:fs';

const PACKAGE_NAME = 'gitops-config-api';

function readVersion(): string {
  let folder = new URL('.', import.meta.url);
  for (let depth = 0; depth < 4; depth++) {
    folder = new URL('..', folder);
    try {
      const manifest = JSON.parse(readFileSync(new URL('package.json', folder), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // Not this folder: keep walking up.
    }
  }
  return '0.0.0-unknown';
}

export const VERSION = readVersion();
