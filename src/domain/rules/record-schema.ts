// Rule: a record matches the JSON Schema of its kind (files in schemas/, also published for
// editors). Returns the record in canonical form: defaults filled in, keys in a fixed order.
// The same function serves record files, SQLite rows, the seed file and REST writes, so
// whatever one accepts the others accept too. A rollout has rules of its own beyond its schema
// (../rollouts/rollout-normalize.ts).
import { Ajv, type ValidateFunction } from 'ajv';
import type {
  Cluster,
  Collection,
  ComponentRef,
  NamespaceDef,
  PlatformComponent,
  RecordOf,
  RoleBindingDef,
  Rollout,
} from '../records.ts';
import { normalizeRollout } from '../rollouts/rollout-normalize.ts';
import { canonicalRollout } from '../rollouts/rollout-record.ts';
import {
  clusterSchema,
  componentSchema,
  namespaceSchema,
  rolebindingSchema,
  rolloutSchema,
} from '../schema-documents.ts';
import { type Problem, problem } from '../problem.ts';
import {
  AJV_OPTIONS,
  compileRecordSchema,
  describeErrors,
  schemaProblems,
  type ValidationResult,
  withRequiredId,
} from './schema-check.ts';
import { type SchemaNode, withoutReachableRequired } from './schema-shape.ts';

export { dedupe, escapePointer, schemaProblems, type ValidationResult, withRequiredId } from './schema-check.ts';

export const RECORD_SCHEMAS: Record<Collection, object> = {
  clusters: withRequiredId(clusterSchema),
  platform_components: withRequiredId(withoutOciUrlPattern(componentSchema)),
  namespaces: withRequiredId(namespaceSchema),
  rolebindings: withRequiredId(rolebindingSchema),
  rollouts: withRequiredId(rolloutSchema),
};

/**
 * The published schema's pattern for oci_url is a rule of its own (./oci-url.ts): a record
 * that already breaks it is a warning while it is unchanged, which a schema check cannot say.
 */
function withoutOciUrlPattern(schema: typeof componentSchema): object {
  const { pattern: _pattern, ...ociUrl } = schema.properties.oci_url as { pattern?: string };
  return { ...schema, properties: { ...schema.properties, oci_url: ociUrl } };
}

/** The kinds checked by their schema alone; a rollout is checked by normalizeRollout, which compiles its own. */
const validators = Object.fromEntries(
  Object.entries(RECORD_SCHEMAS)
    .filter(([collection]) => collection !== 'rollouts')
    .map(([collection, schema]) => [collection, compileRecordSchema(schema)]),
) as Record<Exclude<Collection, 'rollouts'>, ValidateFunction>;
// The parts of a record a patch touched are checked against the schema without the required
// keys of the objects a patch merges into (./schema-shape.ts); a second instance, since the
// schemas keep their $id. A rollout is always checked whole (./patched-record.ts).
const partsAjv = new Ajv(AJV_OPTIONS);
const partValidators = Object.fromEntries(
  Object.entries(RECORD_SCHEMAS)
    .filter(([collection]) => collection !== 'rollouts')
    .map(([collection, schema]) => [collection, partsAjv.compile(withoutReachableRequired(schema as SchemaNode))]),
) as Record<Exclude<Collection, 'rollouts'>, ValidateFunction>;

/**
 * Validates `input` as a record of `collection`. The input is not modified, unless `inPlace` is
 * set for a document no one else holds (one just parsed from a file): schema defaults are then
 * filled in on it directly, which saves a deep copy per record when a whole repo is loaded.
 */
export function validateRecord<C extends Collection>(
  collection: C,
  input: unknown,
  options: { inPlace?: boolean } = {},
): ValidationResult<RecordOf[C]> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return {
      ok: false,
      problems: [problem('wrong_type', { field: '' }, 'must be an object (a mapping of field names to values)')],
    };
  }
  if (collection === 'rollouts') return normalizeRollout(input, options) as ValidationResult<RecordOf[C]>;
  const copy = options.inPlace ? input : structuredClone(input);
  // The assertion is needed (a generic C is not narrowed by the test above); the linter's
  // TypeScript, another version than tsc, finds it unnecessary.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  const validate = validators[collection as Exclude<Collection, 'rollouts'>];
  if (!validate(copy)) return { ok: false, problems: schemaProblems(validate.errors ?? []) };
  return { ok: true, record: canonicalize(collection, copy as RecordOf[C]) };
}

/**
 * The problems of the parts of a record a patch touched (`parts`, made by ./patched-record.ts),
 * their required keys aside: the same problems, at the same places, that validateRecord finds
 * in those parts of the whole record.
 */
export function partProblems(collection: Exclude<Collection, 'rollouts'>, parts: Record<string, unknown>): Problem[] {
  const validate = partValidators[collection];
  return validate(structuredClone(parts)) ? [] : describeErrors(validate.errors ?? []);
}

/** Rebuilds a schema-valid record with its keys in the one fixed order used everywhere. */
export function canonicalize<C extends Collection>(collection: C, r: RecordOf[C]): RecordOf[C] {
  switch (collection) {
    case 'clusters':
      return canonicalCluster(r as Cluster) as RecordOf[C];
    case 'platform_components':
      return canonicalComponent(r as PlatformComponent) as RecordOf[C];
    case 'namespaces': {
      const n = r as NamespaceDef;
      return { id: n.id, labels: { ...n.labels }, annotations: { ...n.annotations } } as RecordOf[C];
    }
    case 'rolebindings': {
      const b = r as RoleBindingDef;
      return {
        id: b.id,
        role: b.role,
        subjects: b.subjects.map((s) => ({ kind: s.kind, name: s.name, apiGroup: s.apiGroup })),
      } as RecordOf[C];
    }
    case 'rollouts':
      return canonicalRollout(r as Rollout) as RecordOf[C];
  }
  throw new Error(`unknown collection ${String(collection)}`);
}

function canonicalCluster(c: Cluster): Cluster {
  return {
    id: c.id,
    cluster_name: c.cluster_name,
    cluster_dns: c.cluster_dns,
    environment: c.environment,
    credential_generation: c.credential_generation,
    receiver_url: c.receiver_url ?? null,
    platform_components: c.platform_components.map((ref): ComponentRef => ({
      id: ref.id,
      enabled: ref.enabled,
      oci_tag: ref.oci_tag ?? null,
      component_path: ref.component_path ?? null,
    })),
    namespaces: c.namespaces.map((n) => ({ id: n.id })),
    rolebindings: c.rolebindings.map((b) => ({ id: b.id })),
    patches: Object.fromEntries(Object.entries(c.patches).map(([component, values]) => [component, { ...values }])),
  };
}

function canonicalComponent(p: PlatformComponent): PlatformComponent {
  return {
    id: p.id,
    component_path: p.component_path,
    component_version: p.component_version,
    oci_url: p.oci_url,
    oci_tag: p.oci_tag,
    cluster_env_enabled: p.cluster_env_enabled,
    depends_on: [...p.depends_on],
  };
}
