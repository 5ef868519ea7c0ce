// The PrometheusRule of deploy/kubernetes/components/prometheusrule/ is the plain rule file
// deploy/prometheus/gitops-config-api.rules.yaml wrapped in a Prometheus Operator resource:
// one source of truth. `npm run rules:generate` writes it; test/deploy/alert-rules.test.ts fails while
// the committed one differs from what this makes.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isSeq, parseDocument } from 'yaml';

const ROOT = join(import.meta.dirname, '..');
export const RULE_FILE = join(ROOT, 'deploy', 'prometheus', 'gitops-config-api.rules.yaml');
const COMPONENT = join(ROOT, 'deploy', 'kubernetes', 'components', 'prometheusrule');
export const PROMETHEUS_RULE_FILE = join(COMPONENT, 'prometheusrule.yaml');

const HEADER = `Made by \`npm run rules:generate\` from deploy/prometheus/gitops-config-api.rules.yaml: edit the
 rules there and run it again. The same rules as a Prometheus Operator resource; a Prometheus
 whose ruleSelector asks for a label (kube-prometheus-stack: release) needs it added in the overlay.`;

/** The PrometheusRule's text for the rule file's text: its groups as written, comments and block scalars kept. */
export function prometheusRuleText(ruleFileText: string): string {
  const rules = parseDocument(ruleFileText);
  if (rules.errors.length > 0) throw new Error(`the rule file does not parse: ${rules.errors[0].message}`);
  const groups = rules.get('groups', true);
  if (!isSeq(groups)) throw new Error('the rule file has no list of groups');
  const resource = new Document({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'gitops-config-api', labels: { 'app.kubernetes.io/name': 'gitops-config-api' } },
    spec: {},
  });
  resource.setIn(['spec', 'groups'], groups);
  resource.commentBefore = ` ${HEADER}`;
  return resource.toString({ lineWidth: 100 });
}

if (process.argv[1] === import.meta.filename) {
  const text = prometheusRuleText(readFileSync(RULE_FILE, 'utf8'));
  writeFileSync(`${PROMETHEUS_RULE_FILE}.tmp`, text);
  renameSync(`${PROMETHEUS_RULE_FILE}.tmp`, PROMETHEUS_RULE_FILE);
  console.log(`${PROMETHEUS_RULE_FILE}: written`);
}
