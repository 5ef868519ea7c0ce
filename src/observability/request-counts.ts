// Answered HTTP requests by route template, method, status and kind of caller, with their durations, kept in
// plain numbers. The read path adds to them on every poll, so recording is a few increments
// on objects resolved ahead of time: no label object, no hashing, no allocation once a route
// has answered a status. prom-client reads them only when /metrics is scraped
// (./service-metrics.ts); its own counters would hash a label object on every request.

/**
 * Upper bounds of the duration buckets, in seconds. A poll is answered from memory in well
 * under a millisecond, so the low end is fine-grained; a write (a commit) takes tens of
 * milliseconds; anything past a few seconds is a fault worth seeing as such.
 */
export const DURATION_BUCKETS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Methods counted by name; any other is counted as "other", so the label stays a short list. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const OTHER_METHOD = METHODS.length;

/** The route label of a request whose path matches no route: never the path itself, which could be anything. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Who asked, by kind only (never a name: a cluster id or a person would make a series each).
 * `anonymous`: no valid credential, or a public path.
 */
export const CALLER_LABELS = ['service', 'cluster', 'person', 'anonymous'] as const;
export type CallerLabel = (typeof CALLER_LABELS)[number];

/** The requests of one route and method: answers by status and caller, and a histogram of durations. */
export class RouteMethodCounts {
  readonly route: string;
  readonly method: string;
  /**
   * Each status answered to each kind of caller, and how many times, at the same index. A
   * route answers a handful of these pairs: a scan beats a map.
   */
  readonly statuses: number[] = [];
  readonly callers: CallerLabel[] = [];
  readonly answers: number[] = [];
  /** Answers per duration bucket, not cumulative; the last one counts those above the largest bound. */
  readonly buckets = new Float64Array(DURATION_BUCKETS.length + 1);
  seconds = 0;
  count = 0;

  constructor(route: string, method: string) {
    this.route = route;
    this.method = method;
  }

  record(status: number, seconds: number, caller: CallerLabel = 'anonymous'): void {
    const statuses = this.statuses;
    const callers = this.callers;
    let i = 0;
    while (i < statuses.length && (statuses[i] !== status || callers[i] !== caller)) i++;
    if (i === statuses.length) {
      statuses.push(status);
      callers.push(caller);
      this.answers.push(0);
    }
    this.answers[i]++;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
    this.buckets[bucket]++;
    this.seconds += seconds;
    this.count++;
  }
}

/** One route template; its per-method counts are made when a method is first seen. */
export class RouteCounts {
  readonly route: string;
  readonly #byMethod: (RouteMethodCounts | undefined)[] = [];

  constructor(route: string) {
    this.route = route;
  }

  method(name: string | undefined): RouteMethodCounts {
    const index = methodIndex(name);
    return (this.#byMethod[index] ??= new RouteMethodCounts(
      this.route,
      index === OTHER_METHOD ? 'other' : METHODS[index],
    ));
  }

  *all(): Iterable<RouteMethodCounts> {
    for (const counts of this.#byMethod) if (counts) yield counts;
  }
}

export class RequestCounts {
  readonly #routes = new Map<string, RouteCounts>();

  /**
   * The counts of a route template (such as /clusters/:id), made on first use; resolve it once where the route is
   * known.
   */
  route(template: string): RouteCounts {
    let counts = this.#routes.get(template);
    if (!counts) {
      counts = new RouteCounts(template);
      this.#routes.set(template, counts);
    }
    return counts;
  }

  *all(): Iterable<RouteMethodCounts> {
    for (const route of this.#routes.values()) yield* route.all();
  }
}

function methodIndex(name: string | undefined): number {
  switch (name) {
    case 'GET':
      return 0;
    case 'HEAD':
      return 1;
    case 'POST':
      return 2;
    case 'PUT':
      return 3;
    case 'PATCH':
      return 4;
    case 'DELETE':
      return 5;
    case 'OPTIONS':
      return 6;
    default:
      return OTHER_METHOD;
  }
}
