// The web UI's types of the API, made from the contract: openapi/openapi.yaml turned into
// TypeScript by openapi-typescript. `npm run generate:api` writes them to API_TYPES_FILE (the
// first step of `npm run build:ui`); test/ui/api-types.unit.test.ts fails when the file committed
// is not what the document makes, so the UI cannot read a field the contract does not have.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

const ROOT = resolve(import.meta.dirname, '..');
export const OPENAPI_FILE = resolve(ROOT, 'openapi', 'openapi.yaml');
export const API_TYPES_FILE = resolve(ROOT, 'ui', 'src', 'api', 'openapi.gen.ts');

const HEADER = `// Made from openapi/openapi.yaml by \`npm run generate:api\` (openapi-typescript): do not edit.
// test/ui/api-types.unit.test.ts fails when this file is not what the document makes.
// ui/src/api/types.ts names the parts the UI reads.

`;

/** The types openapi-typescript makes of an OpenAPI document (its YAML text). */
export async function apiTypesOf(document: string): Promise<string> {
  const nodes = await openapiTS(document, {
    // `type: object` with no properties (a change set's record, a JSON Merge Patch) holds
    // anything; the default would make it an object that can hold nothing.
    emptyObjectsUnknown: true,
    // Only `required` makes a field present: a request body's field with a default may be
    // left out.
    defaultNonNullable: false,
    silent: true,
  });
  // In the project's form (.prettierrc.json), like every other file of ui/src/.
  const options = await resolveConfig(API_TYPES_FILE);
  return format(HEADER + astToString(nodes), { ...options, filepath: API_TYPES_FILE });
}

export function currentDocument(): string {
  return readFileSync(OPENAPI_FILE, 'utf8');
}
