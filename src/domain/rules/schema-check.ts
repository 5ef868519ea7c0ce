// A record against a JSON Schema: the one Ajv instance every record kind is compiled in, and
// the words its errors are said in (a field, a rule a person reads), so that a file, a row, a
// seed and a REST body are judged alike whatever their kind. The kinds themselves:
// record-schema.ts.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ID_RULE } from '../ids.ts';
import { clusterSchema, namespaceSchema } from '../schema-documents.ts';
import { type Problem, problem } from '../problem.ts';

/**
 * A file may leave `id` out (its name is the id), so the published schemas, which editors
 * apply to files, do not require it; a record always has one by the time it is checked here
 * (the loader fills it in from the file name; a REST create names it in the body).
 */
export function withRequiredId(schema: object): object {
  const required = (schema as { required?: string[] }).required ?? [];
  return { ...schema, required: ['id', ...required] };
}

export const AJV_OPTIONS = { allErrors: true, useDefaults: true, strict: true, allowUnionTypes: true, verbose: true };
const ajv = new Ajv(AJV_OPTIONS);
/** A schema compiled as the record schemas are (for a kind whose records are checked apart, like rollouts). */
export function compileRecordSchema(schema: object): ValidateFunction {
  return ajv.compile(schema);
}

// Ajv reports a failed `pattern` as the regex itself; people need the rule in words.
const PATTERN_MESSAGES: Record<string, string> = {
  [(clusterSchema.definitions.id as { pattern: string }).pattern]: `must be ${ID_RULE}`,
  [clusterSchema.properties.cluster_dns.pattern]:
    'must be a valid DNS hostname (labels of letters, digits and -, separated by dots)',
  [namespaceSchema.properties.id.pattern]:
    'must be a DNS-1123 label: lowercase letters, digits and -, starting and ending with a letter or digit, at most ' +
    '63 characters',
  [namespaceSchema.definitions.key.pattern]:
    'must be a Kubernetes key: an optional DNS subdomain prefix and "/", then a name of at most 63 letters, digits, ' +
    '-, _ and ., starting and ending with a letter or digit',
  [(namespaceSchema.definitions.labels.additionalProperties as { pattern: string }).pattern]:
    'must be a Kubernetes label value: at most 63 letters, digits, -, _ and ., starting and ending with a letter or ' +
    'digit',
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
    return problem(
      'invalid_key',
      { field: `${e.instancePath}/${escapePointer(key)}` },
      `has an invalid key "${key}": it ${rule ?? 'is not allowed'}`,
    );
  }
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = (e.params as { additionalProperty: string }).additionalProperty;
      return problem(
        'unknown_field',
        { field: `${e.instancePath}/${escapePointer(field)}` },
        `unknown field "${field}"`,
      );
    }
    case 'required': {
      const field = (e.params as { missingProperty: string }).missingProperty;
      return problem(
        'missing_field',
        { field: `${e.instancePath}/${escapePointer(field)}` },
        `missing required field "${field}"`,
      );
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
      const hint =
        expected === 'string' && (typeof e.data === 'number' || typeof e.data === 'boolean')
          ? ` (quote it: "${String(e.data)}")`
          : '';
      return problem('wrong_type', { field: e.instancePath }, `must be a ${expected}${hint}`);
    }
    case 'maxLength':
      return problem(
        'invalid_value',
        { field: e.instancePath },
        `must be at most ${(e.params as { limit: number }).limit} characters long`,
      );
    default:
      return problem('invalid_value', { field: e.instancePath }, e.message ?? 'is invalid');
  }
}

/** One segment of a JSON pointer: "~" and "/" escaped (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export type ValidationResult<T> = { ok: true; record: T } | { ok: false; problems: Problem[] };

/** A schema's errors as problems, each said once, in words. */
export function schemaProblems(errors: readonly ErrorObject[]): Problem[] {
  return dedupe(describeErrors(errors));
}

/** A schema's errors as problems in words, as many as there are errors. */
export function describeErrors(errors: readonly ErrorObject[]): Problem[] {
  return errors.flatMap((e) => describeError(e) ?? []);
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
