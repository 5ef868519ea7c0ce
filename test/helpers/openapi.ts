// Checks real responses against the response schemas of openapi/openapi.yaml.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv } from 'ajv';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

let documentPromise: Promise<Doc> | undefined;
// OpenAPI 3.0 schemas carry `example`, `nullable` and friends: not strict JSON Schema.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('date-time', (value: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value),
);
ajv.addFormat(
  'hostname',
  /^[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/,
);

export function openapiDocument(): Promise<Doc> {
  documentPromise ??= SwaggerParser.dereference('openapi/openapi.yaml') as unknown as Promise<Doc>;
  return documentPromise;
}

/** Throws with the schema errors unless `body` matches the documented response. */
export async function expectMatchesOpenApi(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
): Promise<void> {
  const doc = await openapiDocument();
  const operation = doc.paths[pathTemplate]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${pathTemplate} is not in the OpenAPI document`);
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) throw new Error(`${method} ${pathTemplate} documents no ${status} response`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${pathTemplate} ${status} has no application/json schema`);
  const validate = ajv.compile(schema);
  if (!validate(body)) {
    throw new Error(
      `${method} ${pathTemplate} ${status} does not match its schema: ` +
        `${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}
