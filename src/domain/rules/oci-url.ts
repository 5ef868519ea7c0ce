// Rule: a catalog entry's oci_url is a URL whose scheme is oci, https or http, with a host
// (the pattern of schemas/platform_component.schema.json, and a URL as the WHATWG parser reads
// it). The consumer pulls charts from it; any other string (`javascript:`, a file path, an
// SSH remote) is a mistake or worse. The published schema holds the pattern, so editors flag
// it; the service's own schema check leaves it out (./record-schema.ts) and this rule says it,
// so that a record that already breaks it is a warning while it is unchanged, and only a
// change that brings such a value in is refused (the judge and the writes' ratchet compare the
// value, not only the field: docs/decisions/0032-credential-generation-and-oci-url-ratchets.md).
import { type Problem, problem } from '../problem.ts';
import type { PlatformComponent } from '../records.ts';
import { componentSchema } from '../schema-documents.ts';
import type { Snapshot } from '../snapshot.ts';

/** The pattern of the published schema. */
export const OCI_URL = new RegExp((componentSchema.properties.oci_url as { pattern: string }).pattern);

/** The problem of an entry whose oci_url is not such a URL, or undefined. */
export function ociUrlProblem(entry: PlatformComponent): Problem | undefined {
  const url = entry.oci_url;
  if (OCI_URL.test(url) && URL.canParse(url)) return undefined;
  const shown = url.length > 100 ? `${JSON.stringify(url.slice(0, 100))}...` : JSON.stringify(url);
  return problem(
    'oci_url_scheme',
    { record: { collection: 'platform_components', id: entry.id }, field: '/oci_url' },
    `must be a URL whose scheme is oci, https or http, with a host (oci://registry.example.com/charts, ` +
      `https://charts.example.com); ${shown} is not`,
    // The same record with the same value is the same problem; another value is a new one.
    { identity: `oci_url:${url}` },
  );
}

const found = new WeakMap<ReadonlyMap<string, PlatformComponent>, Problem[]>();

/** The problems of every catalog entry, remembered per catalog. */
export function ociUrlProblems(snapshot: Snapshot): Problem[] {
  let problems = found.get(snapshot.platform_components);
  if (!problems) {
    problems = [];
    for (const entry of snapshot.platform_components.values()) {
      const bad = ociUrlProblem(entry);
      if (bad) problems.push(bad);
    }
    found.set(snapshot.platform_components, problems);
  }
  return problems;
}
