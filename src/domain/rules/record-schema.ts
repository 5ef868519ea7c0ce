// Rule: a record matches the JSON Schema of its kind (files in schemas/, also published for
// editors). Returns the record in canonical form: defaults filled in, keys in a fixed order.
// The same function serves record files, SQLite rows, the seed file and REST writes, so
// whatever one accepts the others accept too.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type {
  Cluster,
  Collection,
  ComponentRef,
  NamespaceDef,
  PlatformComponent,
  RecordOf,
  RoleBindingDef,
} from '../records.ts';
import { ID_RULE } from '../ids.ts';
import { clusterSchema, componentSchema, namespaceSchema, rolebindingSchema } from '../schema-documents.ts';
import { type Problem, problem } from '../problem.ts';
import { type SchemaNode, withoutReachableRequired } from './schema-shape.ts';

export const RECORD_SCHEMAS: Record<Collection, object> = {
  clusters: withRequiredId(clusterSchema),
  platform_components: withRequiredId(withoutOciUrlPattern(componentSchema)),
  namespaces: withRequiredId(namespaceSchema),
  rolebindings: withRequiredId(rolebindingSchema),
};

/**
 * The published schema's pattern for oci_url is a rule of its own (./oci-url.ts): a record
 * that already breaks it is a warning while it is unchanged, which a schema check cannot say.
 */
function withoutOciUrlPattern(schema: typeof componentSchema): object {
  const { pattern: _pattern, ...ociUrl } = schema.properties.oci_url as { pattern?: string };
  return { ...schema, properties: { ...schema.properties, oci_url: ociUrl } };
}

/**
 * A file may leave `id` out (its name is the id), so the published schemas, which editors
 * apply to files, do not require it; a record always has one by the time it is checked here
 * (the loader fills it in from the file name; a REST create names it in the body).
 */
export function withRequiredId(schema: object): object {
  const required = (schema as { required?: string[] }).required ?? [];
  return { ...schema, required: ['id', ...required] };
}

const AJV_OPTIONS = { allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true, verbose: true };
const ajv = new Ajv(AJV_OPTIONS);
/** A schema compiled as the record schemas are (for a kind whose records are checked apart, like rollouts). */
export function compileRecordSchema(schema: object): ValidateFunction {
  return ajv.compile(schema);
}

const validators = Object.fromEntries(
  Object.entries(RECORD_SCHEMAS).map(([collection, schema]) => [collection, ajv.compile(schema)]),
) as Record<Collection, ValidateFunction>;
// The parts of a record a patch touched are checked against the schema without the required
// keys of the objects a patch merges into (./schema-shape.ts); a second instance, since the
// schemas keep their $id.
const partsAjv = new Ajv(AJV_OPTIONS);
const partValidators = Object.fromEntries(
  Object.entries(RECORD_SCHEMAS).map(([collection, schema]) => [collection, partsAjv.compile(withoutReachableRequired(schema as SchemaNode))]),
) as Record<Collection, ValidateFunction>;

// Ajv reports a failed `pattern` as the regex itself; people need the rule in words.
const PATTERN_MESSAGES: Record<string, string> = {
  [(clusterSchema.definitions.id as { pattern: string }).pattern]: `must be ${ID_RULE}`,
  [clusterSchema.properties.cluster_dns.pattern]: 'must be a valid DNS hostname (labels of letters, digits and -, separated by dots)',
  [namespaceSchema.properties.id.pattern]:
    'must be a DNS-1123 label: lowercase letters, digits and -, starting and ending with a letter or digit, at most 63 characters',
  [namespaceSchema.definitions.key.pattern]:
    'must be a Kubernetes key: an optional DNS subdomain prefix and "/", then a name of at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit',
  [(namespaceSchema.definitions.labels.additionalProperties as { pattern: string }).pattern]:
    'must be a Kubernetes label value: at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit',
  [(clusterSchema.properties.patches.additionalProperties.propertyNames as { pattern: string }).pattern]:
    'must be a ConfigMap key: letters, digits, -, _ and . (a dotted key is a Helm value path), and not __proto__',
};

function describeError(e: ErrorObject): Problem | undefined {
  // A key that breaks a propertyNames rule: ajv reports the rule it broke (with the key), then
  // a summary; the first is placed at the key itself, the summary is left out.
  const key = (e as ErrorObject & { propertyName?: string }).propertyName;
  if (e.keyword === 'propertyNames') return undefined;
  if (key !== undefined) {
    const rule = e.keyword === 'pattern' ? PATTERN_MESSAGES[(e.params as { pattern: string }).pattern] : e.message;
    return problem('invalid_key', { field: `${e.instancePath}/${escapePointer(key)}` }, `has an invalid key "${key}": it ${rule ?? 'is not allowed'}`);
  }
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = (e.params as { additionalProperty: string }).additionalProperty;
      return problem('unknown_field', { field: `${e.instancePath}/${escapePointer(field)}` }, `unknown field "${field}"`);
    }
    case 'required': {
      const field = (e.params as { missingProperty: string }).missingProperty;
      return problem('missing_field', { field: `${e.instancePath}/${escapePointer(field)}` }, `missing required field "${field}"`);
    }
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.join(', ');
      return problem('invalid_value', { field: e.instancePath }, `must be one of: ${allowed}`);
    }
    case 'pattern': {
      const pattern = (e.params as { pattern: string }).pattern;
      return problem('invalid_value', { field: e.instancePath }, PATTERN_MESSAGES[pattern] ?? `must match ${pattern}`);
    }
    case 'type': {
      const expected = String((e.params as { type: string | string[] }).type).replace(',', ' or ');
      // YAML reads 3, true and 1.10 as numbers and booleans; patches and labels need strings.
      const hint = expected === 'string' && (typeof e.data === 'number' || typeof e.data === 'boolean') ? ` (quote it: "${String(e.data)}")` : '';
      return problem('wrong_type', { field: e.instancePath }, `must be a ${expected}${hint}`);
    }
    case 'maxLength':
      return problem('invalid_value', { field: e.instancePath }, `must be at most ${(e.params as { limit: number }).limit} characters long`);
    default:
      return problem('invalid_value', { field: e.instancePath }, e.message ?? 'is invalid');
  }
}

/** One segment of a JSON pointer: "~" and "/" escaped (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export type ValidationResult<T> = { ok: true; record: T } | { ok: false; problems: Problem[] };

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
    return { ok: false, problems: [problem('wrong_type', { field: '' }, 'must be an object (a mapping of field names to values)')] };
  }
  const copy = options.inPlace ? input : structuredClone(input);
  const validate = validators[collection];
  if (!validate(copy)) return { ok: false, problems: schemaProblems(validate.errors ?? []) };
  return { ok: true, record: canonicalize(collection, copy as RecordOf[C]) };
}

/** A schema's errors as problems, each said once, in words. */
export function schemaProblems(errors: readonly ErrorObject[]): Problem[] {
  return dedupe(errors.flatMap((e) => describeError(e) ?? []));
}

/**
 * The problems of the parts of a record a patch touched (`parts`, made by ./patched-record.ts),
 * their required keys aside: the same problems, at the same places, that validateRecord finds
 * in those parts of the whole record.
 */
export function partProblems(collection: Collection, parts: Record<string, unknown>): Problem[] {
  const validate = partValidators[collection];
  return validate(structuredClone(parts)) ? [] : (validate.errors ?? []).flatMap((e) => describeError(e) ?? []);
}

export function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.at.field}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
    platform_components: c.platform_components.map(
      (ref): ComponentRef => ({
        id: ref.id,
        enabled: ref.enabled,
        oci_tag: ref.oci_tag ?? null,
        component_path: ref.component_path ?? null,
      }),
    ),
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
