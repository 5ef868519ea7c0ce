// The JSON Schemas of the record kinds, from the package's schemas/ folder (also
// published for editors). Read once when loaded, rather than imported as JSON modules: those
// need import attributes, a syntax error before Node 20.10, and the command-line tool, which
// loads these, supports every Node 20.
import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from '../shared/package-root.ts';

// The types still come from the files themselves. The linter's TypeScript does not resolve
// the types of JSON imported with attributes (tsc does, and checks every use of them):
/* eslint-disable @typescript-eslint/no-unsafe-assignment -- see above */
type ClusterSchema = typeof import('../../schemas/cluster.schema.json', { with: { type: 'json' } });
type ComponentSchema = typeof import('../../schemas/platform_component.schema.json', { with: { type: 'json' } });
type NamespaceSchema = typeof import('../../schemas/namespace.schema.json', { with: { type: 'json' } });
type RolebindingSchema = typeof import('../../schemas/rolebinding.schema.json', { with: { type: 'json' } });
type RolloutSchema = typeof import('../../schemas/rollout.schema.json', { with: { type: 'json' } });
/* eslint-enable @typescript-eslint/no-unsafe-assignment */

function readSchema<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`schemas/${name}.schema.json`, PACKAGE_ROOT), 'utf8')) as T;
}

export const clusterSchema = readSchema<ClusterSchema>('cluster');
export const componentSchema = readSchema<ComponentSchema>('platform_component');
export const namespaceSchema = readSchema<NamespaceSchema>('namespace');
export const rolebindingSchema = readSchema<RolebindingSchema>('rolebinding');
export const rolloutSchema = readSchema<RolloutSchema>('rollout');
