// Rule: catalog ids the consumer builds Kubernetes resource names from
// ("platform-<< inputs.id >>") should be DNS-1123 labels. Ids allow more (capitals, "_", "."),
// so a template may fail to render on one: a warning, since the template decides.
import { type Problem, problem } from '../problem.ts';
import type { Snapshot } from '../snapshot.ts';

const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function componentIdsNotDnsLabels(snapshot: Snapshot): Problem[] {
  const problems: Problem[] = [];
  for (const id of snapshot.platform_components.keys()) {
    if (DNS_1123_LABEL.test(id)) continue;
    problems.push({
      ...problem(
        'component_id_not_dns_label',
        { record: { collection: 'platform_components', id }, field: '/id' },
        `"${id}" is not a DNS-1123 label (lowercase letters, digits and -, at most 63): templates that build ` +
          `resource names from it may fail`,
      ),
      severity: 'warning',
    });
  }
  return problems;
}
