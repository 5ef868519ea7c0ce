// The query of GET /api/v2/gitops/clusters: ?environment=<env> and ?shard=<i>/<n>, both
// optional, each at most once. Anything else is refused by name, so that a typo never
// silently returns the whole fleet.
import { type FleetListFilter, MAX_SHARDS } from '../../domain/projections/index.ts';
import { ENVIRONMENTS, type Environment } from '../../domain/records.ts';
import { type ErrorDetail, invalidQuery } from '../errors.ts';

export function parseFleetListQuery(query: string): FleetListFilter {
  const params = new URLSearchParams(query);
  const details: ErrorDetail[] = [];
  const filter: FleetListFilter = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (values.length > 1) {
      details.push({ path: name, message: 'must be given once' });
      continue;
    }
    const value = values[0];
    if (name === 'environment') {
      if ((ENVIRONMENTS as readonly string[]).includes(value)) filter.environment = value as Environment;
      else details.push({ path: name, message: `must be one of: ${ENVIRONMENTS.join(', ')}` });
    } else if (name === 'shard') {
      const match = /^(\d{1,4})\/(\d{1,4})$/.exec(value);
      const index = Number(match?.[1]);
      const count = Number(match?.[2]);
      if (match && count >= 1 && count <= MAX_SHARDS && index < count) filter.shard = { index, count };
      else
        details.push({
          path: name,
          message: `must be <i>/<n>, with 1 <= n <= ${MAX_SHARDS} and 0 <= i < n (e.g. 0/4)`,
        });
    } else {
      details.push({ path: name, message: `unknown query parameter "${name}"; allowed: environment, shard` });
    }
  }
  if (details.length > 0) {
    throw invalidQuery(details);
  }
  return filter;
}
