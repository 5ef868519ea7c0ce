// Regenerates the expected outputs of every golden case (test/golden/<case>/expected/) from
// what the service and the config-repo tool produce now, and those of the projections' cases
// (test/domain/projections/cases/<case>/expected/): `npm run golden:update`, or
// `npm run golden:update -- <case> ...` for some golden cases only. Review the diff like any
// other change.
import { join } from 'node:path';
import { updateProjectionCases } from '../test/domain/projections/projection-cases.ts';
import { GOLDEN_ROOT, goldenCases, updateCase } from '../test/helpers/golden.ts';

const wanted = process.argv.slice(2);
for (const name of wanted.length > 0 ? wanted : goldenCases()) {
  const files = await updateCase(join(GOLDEN_ROOT, name));
  console.log(`${name}: ${files} expected files written`);
}
if (wanted.length === 0) console.log(`projection cases: ${updateProjectionCases()} expected files written`);
