// The published schemas as an editor uses them: every record file of the example repo names
// its schema in a modeline whose relative path resolves from the file, and that schema, as
// published (no product code in between), accepts the file — also with `id` left out, as the
// README allows.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const EXAMPLE = new URL('../../config-repo-example/', import.meta.url).pathname;
const MODELINE = /^# yaml-language-server: \$schema=(\S+)$/m;
const SCHEMA_OF_FOLDER: Record<string, string> = {
  clusters: 'cluster.schema.json',
  platform_components: 'platform_component.schema.json',
  namespaces: 'namespace.schema.json',
  rolebindings: 'rolebinding.schema.json',
};

const recordFiles = Object.keys(SCHEMA_OF_FOLDER).flatMap((folder) =>
  readdirSync(join(EXAMPLE, folder))
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => ({ folder, path: join(EXAMPLE, folder, name) })),
);

describe('schema modelines of config-repo-example/', () => {
  it('are on every record file', () => {
    expect(recordFiles.length).toBeGreaterThan(10);
    for (const file of recordFiles) expect(readFileSync(file.path, 'utf8'), file.path).toMatch(MODELINE);
  });

  it.each(recordFiles.map((f) => [f.path.slice(EXAMPLE.length), f] as const))('%s: the schema resolves and accepts the file, with or without id', (_name, file) => {
    const text = readFileSync(file.path, 'utf8');
    const target = resolve(dirname(file.path), MODELINE.exec(text)![1]!);
    expect(target.endsWith(`/schemas/${SCHEMA_OF_FOLDER[file.folder]}`), target).toBe(true);
    const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(target, 'utf8')));
    const record = load(text) as Record<string, unknown>;
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    const { id: _id, ...withoutId } = record;
    expect(validate(withoutId), JSON.stringify(validate.errors)).toBe(true);
  });
});
