// STORE_BACKEND=memory: no setting of its own; its data is SEED_FILE (shared-settings.ts, as
// a new SQLite database reads it too).
import type { BackendKind } from '../backend-kind.ts';
import { MemoryBackend } from './memory-backend.ts';

export type MemorySettings = Record<never, never>;

export const memoryKind: BackendKind<MemorySettings> = {
  settingsFrom: () => ({}),
  create: (settings) => new MemoryBackend({ seedFile: settings.seedFile }),
};
