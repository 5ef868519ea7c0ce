// Benchmark only, never part of the service: loaded with `node --import` into a service
// process, it makes the history of revisions record nothing, so that the scale benchmark can
// time the same writes with and without the history's walk of the fleet, side by side.
import { RevisionHistory } from '../../src/store/history/revision-history.ts';

RevisionHistory.prototype.published = () => undefined;
RevisionHistory.prototype.refused = () => undefined;
