// `npm run generate:api`: writes the web UI's types of the API (ui/src/api/openapi.gen.ts)
// from openapi/openapi.yaml. A temporary file renamed into place, so that an interrupted run
// never leaves half a file for the type-check to trip on; left alone when it is the same, so
// that its time does not make the UI look changed (test/helpers/ui-build.ts goes by times).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { API_TYPES_FILE, apiTypesOf, currentDocument } from './api-types.ts';

const text = await apiTypesOf(currentDocument());
let before: string | undefined;
try {
  before = readFileSync(API_TYPES_FILE, 'utf8');
} catch {
  before = undefined;
}
const name = relative(process.cwd(), API_TYPES_FILE);
if (before === text) {
  console.log(`${name}: unchanged`);
} else {
  const temporary = `${API_TYPES_FILE}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, API_TYPES_FILE);
  console.log(`${name}: written from openapi/openapi.yaml`);
}
