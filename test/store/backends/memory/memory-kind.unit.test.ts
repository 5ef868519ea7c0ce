import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/shared/logger.ts';
import { MemoryBackend } from '../../../../src/store/backends/memory/memory-backend.ts';
import { memoryKind } from '../../../../src/store/backends/memory/memory-kind.ts';
import { sharedBackendSettingsFrom } from '../../../../src/store/backends/shared-settings.ts';

describe('the memory backend', () => {
  it('has no setting of its own, so nothing in the environment stops it', () => {
    expect(memoryKind.settingsFrom({})).toEqual({});
    expect(memoryKind.settingsFrom({ SEED_FILE: 'x.json', DATABASE_URL: 'nonsense' })).toEqual({});
  });

  it('is made from SEED_FILE, the setting it shares with a new SQLite database, and not opened yet', () => {
    const settings = sharedBackendSettingsFrom({ STORE_BACKEND: 'memory', SEED_FILE: '/nonexistent/seed.json' });
    const backend = memoryKind.create(settings, createLogger('silent'));
    expect(backend).toBeInstanceOf(MemoryBackend);
    expect(backend.describe().internal).toEqual({ seed_file: '/nonexistent/seed.json' });
  });
});
