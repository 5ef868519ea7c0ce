// The web UI and the service share one contract: the UI's types of the API
// (ui/src/api/openapi.gen.ts) are exactly what openapi/openapi.yaml makes, and the UI names
// them from there (ui/src/api/types.ts). A field added to or removed from the document without
// `npm run generate:api` fails here; a field the UI reads that the document lacks fails the
// UI's type-check (`npm test` runs it, and so does `npm run build`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesOf, currentDocument } from '../../scripts/api-types.ts';

describe("the UI's types of the API", () => {
  it('are what openapi/openapi.yaml makes (run `npm run generate:api` after changing it)', async () => {
    expect(readFileSync(API_TYPES_FILE, 'utf8')).toBe(await apiTypesOf(currentDocument()));
  });

  it('change with the document: a field added to the fleet view is a difference (the check can fail)', async () => {
    const document = currentDocument();
    const marker = [
      '    FleetCluster:',
      '      type: object',
      '      required: [id, cluster_dns, state, up_to_date, last_seen, endpoints]',
      '      additionalProperties: false',
      '      properties:',
      '',
    ].join('\n');
    expect(document).toContain(marker);
    const changed = document.replace(marker, `${marker}        region:\n          type: string\n`);
    const types = await apiTypesOf(changed);
    expect(types).not.toBe(readFileSync(API_TYPES_FILE, 'utf8'));
    expect(types).toMatch(/FleetCluster: \{\n\s+region\?: string;/);
  });
});
