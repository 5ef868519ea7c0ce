// The shape of a record's JSON Schema where a merge patch can reach: the objects a patch
// merges into key by key (the record itself, and objects such as a cluster's patches or a
// namespace's labels), as opposed to values a patch replaces whole (strings, arrays).
//
// A write that patches a record checks only what it touched (./patched-record.ts): at such an
// object, a key the patch did not touch keeps its value, which passed before. That is sound
// only where the schema judges each key on its own — properties, additionalProperties,
// propertyNames and required, nothing that counts or relates keys (minProperties,
// dependencies, if/then, patternProperties, the combinators). An object schema using anything
// else is not "keywise": a patch that touches it is checked with its whole value.

/** A JSON Schema node, as read from schemas/*.schema.json. */
export type SchemaNode = { [keyword: string]: unknown };

/** Keywords that judge each key of an object on its own, or say nothing about validity. */
const KEYWISE = new Set([
  'type',
  'properties',
  'additionalProperties',
  'propertyNames',
  'required',
  'default',
  'description',
  'title',
  '$comment',
  '$id',
  '$schema',
  'definitions',
]);

/** A `$ref` within the same document ("#/definitions/id") followed, its sibling keywords kept. */
export function resolveRef(root: SchemaNode, node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  if (!ref.startsWith('#/')) throw new Error(`schema: only local references are supported, got ${ref}`);
  let target: unknown = root;
  for (const part of ref.slice(2).split('/'))
    target = (target as SchemaNode)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  if (target === null || typeof target !== 'object') throw new Error(`schema: ${ref} does not resolve`);
  const { $ref: _ref, ...siblings } = node;
  return resolveRef(root, { ...(target as SchemaNode), ...siblings });
}

/** An object schema whose keys are judged one by one (see above); `node` already resolved. */
export function isKeywiseObject(node: SchemaNode): boolean {
  if (node.type !== 'object') return false;
  return Object.keys(node).every((keyword) => KEYWISE.has(keyword));
}

/** The schema of one key's value in a keywise object: its property, or the additional properties' schema. */
export function keySchema(root: SchemaNode, node: SchemaNode, key: string): SchemaNode | boolean {
  const properties = node.properties as Record<string, SchemaNode> | undefined;
  if (properties && Object.hasOwn(properties, key)) return resolveRef(root, properties[key]);
  const additional = node.additionalProperties;
  if (additional === undefined || additional === true) return true;
  if (additional === false) return false;
  return resolveRef(root, additional as SchemaNode);
}

/** The required keys of an object schema. */
export function requiredKeys(node: SchemaNode): readonly string[] {
  return Array.isArray(node.required) ? (node.required as string[]) : [];
}

/**
 * The schema without `required` at every keywise object a merge patch reaches (references to
 * such objects inlined, so a definition used elsewhere keeps its `required`): the schema a
 * patch's touched parts are checked with, while their required keys are checked apart
 * (./patched-record.ts), because the untouched keys are left out of what is checked.
 */
export function withoutReachableRequired(root: SchemaNode): SchemaNode {
  const strip = (node: SchemaNode): SchemaNode => {
    const resolved = resolveRef(root, node);
    if (!isKeywiseObject(resolved)) return node;
    const { required: _required, ...rest } = resolved;
    const out: SchemaNode = { ...rest };
    if (rest.properties) {
      out.properties = Object.fromEntries(
        Object.entries(rest.properties as Record<string, SchemaNode>).map(([key, child]) => [key, strip(child)]),
      );
    }
    if (rest.additionalProperties !== undefined && typeof rest.additionalProperties === 'object') {
      out.additionalProperties = strip(rest.additionalProperties as SchemaNode);
    }
    return out;
  };
  return { ...strip(root), definitions: root.definitions ?? {} };
}
