// The load scenarios, defined once. `npm run load:<scenario>` (infra/suites/load/load.mjs) runs them here;
// `node infra/k6/generate.mjs` writes the k6 scripts SREs run from the same table, and
// infra/test/k6-scenarios.spec.ts fails when a committed script no longer matches it.
//
// Rates are arrivals per second (open model, as k6's arrival-rate executors: a slow answer does not slow
// the next arrival). Each route has a start rate and stages ({ target, seconds }) ramped linearly between.
// Thresholds hold per route, over the answers that are not 429: a 429 (rate limit or quota) is counted
// apart, and `max429Rate` says how many a scenario may see (null: any, the spike is about them). Requests
// sent in a scenario's first `warmupSeconds` are drawn in the report but not judged.

/** Names the single and bulk screens cycle through: sanctioned, review-band and clear names. */
export const NAMES = [
  'Vladimir Putin',
  'Kim Jong Un',
  'Ali Khamenei',
  'Jane Doe',
  'John Smith',
  'Maria Garcia',
  'Rosneft Oil Company',
  'Banco Nacional de Cuba',
  'Hassan Nasrallah',
  'Acme Trading LLC',
];

/**
 * What each route sends and what it must hold. `expect` is the status of a correct answer; anything else
 * but 429 is an error. The large tier promises answers under 200 ms (proto PLANS): the single screen's p99.
 */
export const ROUTES = {
  screen: {
    label: 'single screen',
    method: 'POST',
    path: '/api/v1/screen',
    credentials: 'api-key',
    body: { kind: 'screen' },
    expect: 200,
    thresholds: { p95Ms: 100, p99Ms: 200, errorRate: 0.01 },
  },
  'bulk-sync': {
    label: 'sync bulk, 25 names',
    method: 'POST',
    path: '/api/v1/bulk-screen',
    credentials: 'api-key',
    body: { kind: 'bulk', names: 25 },
    expect: 200,
    thresholds: { p95Ms: 1_500, p99Ms: 3_000, errorRate: 0.01 },
  },
  'bulk-async': {
    label: 'async bulk, 1,001 names: submit, then poll the job to its end',
    method: 'POST',
    path: '/api/v1/bulk-screen',
    credentials: 'api-key',
    // One name over the synchronous limit (BULK_SYNC_MAX): the gateway answers 202 with the job.
    body: { kind: 'bulk', names: 1_001 },
    expect: 202,
    thresholds: { p95Ms: 1_000, p99Ms: 2_000, errorRate: 0.01 },
    poll: {
      path: '/api/v1/jobs/{id}?limit=1',
      everySeconds: 1,
      expect: 200,
      thresholds: { p95Ms: 300, p99Ms: 500, errorRate: 0.01 },
      // From the submit to the poll that sees the job finished.
      completion: { p99Ms: 60_000, timeoutSeconds: 120 },
    },
  },
  dashboard: {
    label: 'dashboard reads: client, logs page, usage history',
    method: 'GET',
    paths: ['/api/client', '/api/client/logs?page=1&limit=20', '/api/client/usage-history'],
    credentials: 'session',
    expect: 200,
    thresholds: { p95Ms: 300, p99Ms: 500, errorRate: 0.01 },
  },
  monitoring: {
    label: 'monitoring writes: add an entity',
    method: 'POST',
    path: '/api/monitoring/entities',
    credentials: 'api-key',
    body: { kind: 'monitored-entity' },
    expect: 201,
    thresholds: { p95Ms: 300, p99Ms: 500, errorRate: 0.01 },
  },
};

const constant = (rate, seconds) => ({ start: rate, stages: [{ target: rate, seconds }] });
const rampHold = (rate, { ramp, hold, down }) => ({
  start: 0,
  stages: [
    { target: rate, seconds: ramp },
    { target: rate, seconds: hold },
    { target: 0, seconds: down },
  ],
});

/**
 * Every scenario: the client tier it runs as, whether the gateway under test enforces the tier's rate limit
 * (`rateLimits: 'enforced'`) or runs with RATE_LIMIT_SCALE lifted (the private stack does that itself; an
 * outside stack must be started so), how many 429s it may see, and each route's arrival rate over time.
 * `sequential`: the routes run one after another (the breakpoint searches each route's limit alone).
 */
export const SCENARIOS = {
  smoke: {
    description:
      'every route at a trickle for 12 s: the deployment answers, each route within its thresholds once warm',
    tier: 'large',
    rateLimits: 'lifted',
    max429Rate: 0,
    // A process just started (a deploy, the test run's restarted gateway) answers its first requests
    // while it compiles: they are drawn in the report, not judged (seen: p99 1.3 s in the first second,
    // 15 ms from the fourth on).
    warmupSeconds: 3,
    routes: {
      screen: constant(2, 12),
      'bulk-sync': constant(0.5, 12),
      'bulk-async': constant(0.1, 12),
      dashboard: constant(1, 12),
      monitoring: constant(0.5, 12),
    },
  },
  load: {
    description: 'the expected busy hour: ramp 20 s, hold 60 s, ramp down 10 s',
    tier: 'large',
    rateLimits: 'lifted',
    max429Rate: 0.01,
    routes: {
      screen: rampHold(100, { ramp: 20, hold: 60, down: 10 }),
      'bulk-sync': rampHold(1, { ramp: 20, hold: 60, down: 10 }),
      'bulk-async': constant(1 / 30, 90),
      dashboard: rampHold(5, { ramp: 20, hold: 60, down: 10 }),
      monitoring: rampHold(2, { ramp: 20, hold: 60, down: 10 }),
    },
  },
  soak: {
    description: 'half the busy hour for 30 minutes: leaks, pool exhaustion, slow drifts in latency',
    tier: 'large',
    rateLimits: 'lifted',
    max429Rate: 0.01,
    routes: {
      screen: constant(50, 1_800),
      'bulk-sync': constant(0.5, 1_800),
      'bulk-async': constant(1 / 60, 1_800),
      dashboard: constant(2, 1_800),
      monitoring: constant(1, 1_800),
    },
  },
  spike: {
    description:
      'single screens from 20/s to 400/s in 5 s, 20 s there, back, 20 s to recover, with the tier limit ' +
      'enforced: the excess is shed with 429 (Retry-After), the rest answered within thresholds',
    tier: 'large',
    rateLimits: 'enforced',
    max429Rate: null,
    routes: {
      screen: {
        start: 20,
        stages: [
          { target: 20, seconds: 10 },
          { target: 400, seconds: 5 },
          { target: 400, seconds: 20 },
          { target: 20, seconds: 5 },
          { target: 20, seconds: 20 },
        ],
      },
      dashboard: constant(1, 60),
    },
  },
  stress: {
    description: 'single screens in steps of 100/s up to 400/s, 30 s each, beside the other routes at the load rate',
    tier: 'large',
    rateLimits: 'lifted',
    max429Rate: 0.01,
    routes: {
      screen: {
        start: 0,
        stages: [100, 200, 300, 400].flatMap((target) => [
          { target, seconds: 5 },
          { target, seconds: 30 },
        ]),
      },
      'bulk-sync': constant(1, 140),
      'bulk-async': constant(1 / 30, 140),
      dashboard: constant(5, 140),
      monitoring: constant(2, 140),
    },
  },
  breakpoint: {
    description:
      'each route alone, its rate ramped until p99 crosses its threshold or errors start (the runner stops a ' +
      'route once its p99 passes 5 × the threshold, or a tenth of its answers fail)',
    tier: 'large',
    rateLimits: 'lifted',
    max429Rate: 0.01,
    sequential: true,
    breakpoint: { windowSeconds: 5, abortP99Factor: 5, abortErrorRate: 0.1 },
    routes: {
      screen: { start: 20, stages: [{ target: 800, seconds: 120 }] },
      'bulk-sync': { start: 0.5, stages: [{ target: 30, seconds: 60 }] },
      dashboard: { start: 5, stages: [{ target: 400, seconds: 60 }] },
      monitoring: { start: 2, stages: [{ target: 300, seconds: 60 }] },
    },
  },
};

export const SCENARIO_NAMES = Object.keys(SCENARIOS);

/** Seconds a route's stages last. */
export const routeSeconds = (plan) => plan.stages.reduce((n, s) => n + s.seconds, 0);

/** Each route's start offset in seconds: 0 for all, or one after another for a sequential scenario. */
export function startOffsets(scenario) {
  let at = 0;
  return Object.fromEntries(
    Object.entries(scenario.routes).map(([route, plan]) => {
      const start = scenario.sequential ? at : 0;
      at += routeSeconds(plan);
      return [route, start];
    }),
  );
}

/** The arrival rate of a route `t` seconds after it started (linear within a stage, 0 after the last). */
export function rateAt(plan, t) {
  let from = plan.start;
  let at = 0;
  for (const stage of plan.stages) {
    if (t < at + stage.seconds) return from + ((stage.target - from) * (t - at)) / stage.seconds;
    at += stage.seconds;
    from = stage.target;
  }
  return 0;
}

/** The highest rate a route reaches: what its connection pool (k6: maxVUs) is sized for. */
export const peakRate = (plan) => Math.max(plan.start, ...plan.stages.map((s) => s.target));
