// The environments a cluster may be in are written once: ENVIRONMENTS in
// src/domain/records.ts. Code imports it; what cannot — the JSON Schemas published for
// editors, the OpenAPI document, the SQLite schema's CHECK (a migration, which stays as it was
// applied) — is held to it here, and no source file writes the list again.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENTS } from '../../src/domain/records.ts';
import { migrate } from '../../src/store/backends/sqlite/migrations.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every `enum` list in a parsed document that names an environment, with where it is. */
function environmentEnums(value: unknown, at = ''): { at: string; values: unknown[] }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => environmentEnums(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const here = `${at}/${key}`;
    if (key === 'enum' && Array.isArray(child) && child.some((v) => (ENVIRONMENTS as readonly unknown[]).includes(v))) {
      return [{ at: here, values: child }];
    }
    return environmentEnums(child, here);
  });
}

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

describe('the environments, written once', () => {
  it('the JSON Schemas of a cluster and of a rollout list exactly ENVIRONMENTS', () => {
    for (const name of ['cluster', 'rollout']) {
      const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', `${name}.schema.json`), 'utf8'));
      const enums = environmentEnums(schema);
      expect(enums.length, name).toBe(1);
      expect(enums[0].values, `${name}${enums[0].at}`).toEqual([...ENVIRONMENTS]);
    }
  });

  it('the OpenAPI document lists them once, as Environment, which every environment refers to', () => {
    const document = load(readFileSync(join(ROOT, 'openapi/openapi.yaml'), 'utf8')) as {
      components: { schemas: Record<string, { enum?: unknown[] }> };
    };
    expect(environmentEnums(document).map((e) => e.at)).toEqual(['/components/schemas/Environment/enum']);
    expect(document.components.schemas.Environment.enum).toEqual([...ENVIRONMENTS]);
  });

  it('the SQLite schema takes exactly ENVIRONMENTS (another list needs a migration of its own)', () => {
    const db = new Database(':memory:');
    try {
      migrate(db);
      const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'clusters'");
      const { sql } = table.get() as { sql: string };
      const listed = /CHECK \(environment IN \(([^)]*)\)\)/.exec(sql)?.[1];
      expect(listed?.split(',').map((value) => value.trim().replace(/^'|'$/g, ''))).toEqual([...ENVIRONMENTS]);
      const insert = db.prepare(
        "INSERT INTO clusters (id, cluster_name, cluster_dns, environment) VALUES (?, 'n', ?, ?)",
      );
      ENVIRONMENTS.forEach((environment, i) => insert.run(`c${i}`, `c${i}.example.com`, environment));
      expect(() => insert.run('other', 'other.example.com', 'staging')).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });

  it('no file of the service, its scripts or the web UI but src/domain/records.ts writes the list again', () => {
    // Two environment names next to each other in quotes, as a list of them would hold. Tests
    // are left out: their data names environments as it needs them.
    const quoted = ENVIRONMENTS.map((environment) => `['"]${environment}['"]`);
    const pairs = new RegExp(
      quoted
        .slice(1)
        .map((next, i) => `${quoted[i]}\\s*[,|]\\s*${next}`)
        .join('|'),
    );
    const sources = ['src', 'scripts', 'ui/src'].flatMap((folder) => files(join(ROOT, folder)));
    const copies = sources
      .filter((path) => /\.(ts|tsx)$/.test(path) && !path.endsWith('openapi.gen.ts'))
      .map((path) => relative(ROOT, path))
      .filter((path) => path !== 'src/domain/records.ts')
      .flatMap((path) =>
        readFileSync(join(ROOT, path), 'utf8')
          .split('\n')
          .flatMap((line, i) => {
            const copy = pairs.test(line) && !line.includes('CHECK (environment IN');
            return copy ? [`${path}:${i + 1}`] : [];
          }),
      );
    expect(copies).toEqual([]);
  });
});
