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

  it.each(recordFiles.map((f) => [f.path.slice(EXAMPLE.length), f] as const))(
    '%s: the schema resolves and accepts the file, with or without id',
    (_name, file) => {
      const text = readFileSync(file.path, 'utf8');
      const target = resolve(dirname(file.path), MODELINE.exec(text)![1]);
      expect(target.endsWith(`/schemas/${SCHEMA_OF_FOLDER[file.folder]}`), target).toBe(true);
      const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(target, 'utf8')));
      const record = load(text) as Record<string, unknown>;
      expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
      const { id: _id, ...withoutId } = record;
      expect(validate(withoutId), JSON.stringify(validate.errors)).toBe(true);
    },
  );
});

// Rollouts as an editor checks them with the published schema alone: the files of the golden
// cases, left without `id` as a person writes them; those the service refuses for their own
// shape (an unknown field in `set`, a batch of 0, durations in words or days) the schema
// refuses too.
describe('the published rollout schema', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/rollout.schema.json', import.meta.url), 'utf8'));
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  const golden = new URL('../golden/', import.meta.url).pathname;
  const file = (path: string) => load(readFileSync(join(golden, path), 'utf8'));

  it.each([
    'rollout-release/repo/rollouts/podinfo-6-8.yaml',
    'rollout-rules/repo/rollouts/podinfo-a.yaml',
    'rollout-rules/repo/rollouts/traefik-same.yaml',
  ])('accepts %s', (path) => expect(validate(file(path)), JSON.stringify(validate.errors)).toBe(true));

  it("refuses what the service refuses for the record's own shape, at each field", () => {
    expect(validate(file('rollout-rules/repo/rollouts/traefik-values.yaml'))).toBe(false);
    const where = new Set(
      validate.errors!.map(
        (e) => e.instancePath || `/${(e.params as { additionalProperty?: string }).additionalProperty}`,
      ),
    );
    expect([...where].sort()).toEqual(
      expect.arrayContaining(['/progress_deadline', '/set', '/waves/0/batch', '/waves/0/soak']),
    );
  });
});
