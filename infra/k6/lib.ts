// What every generated scenario script shares: where the gateway is, the keys and the session, one call
// per route of the scenario table (infra/suites/load/scenarios.mjs, copied into each script by
// generate.mjs), and the per-route metrics the thresholds read. 429s are counted apart (route_limited)
// and kept out of route_duration and route_errors, as the project's runner does.
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Rate, Trend } from 'k6/metrics';

export const BASE_URL = (__ENV.GATEWAY_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const TIME_SCALE = Number(__ENV.TIME_SCALE ?? 1);
const RATE_SCALE = Number(__ENV.RATE_SCALE ?? 1);

/**
 * API_KEYS: comma-separated client keys. Each key is limited by its tier (large: 500/min): a load above
 * that needs several keys, or a gateway started with RATE_LIMIT_SCALE (the scenarios marked "lifted").
 */
const KEYS = (__ENV.API_KEYS ?? __ENV.API_KEY ?? '')
  .split(',')
  .map((k) => k.trim())
  .filter(Boolean);

function apiKey(): string {
  if (KEYS.length === 0) throw new Error('set API_KEYS (or API_KEY) to one or more client API keys');
  return KEYS[(__VU + __ITER) % KEYS.length]!;
}

export type Thresholds = { p95Ms?: number; p99Ms?: number; errorRate: number };
export type RouteSpec = {
  label: string;
  method: 'GET' | 'POST';
  path?: string;
  paths?: string[];
  credentials: 'api-key' | 'session';
  body?: { kind: 'screen' } | { kind: 'bulk'; names: number } | { kind: 'monitored-entity' };
  expect: number;
  thresholds: Thresholds;
  poll?: {
    path: string;
    everySeconds: number;
    expect: number;
    thresholds: Thresholds;
    completion: { p99Ms: number; timeoutSeconds: number };
  };
};
export type SetupData = { accessToken: string | null };

export const routeDuration = new Trend('route_duration', true);
export const routeErrors = new Rate('route_errors');
export const routeLimited = new Rate('route_limited');
export const jobDuration = new Trend('job_duration', true);

/** A stage's duration and an arrival rate with the TIME_SCALE and RATE_SCALE knobs applied. */
export const seconds = (s: number): string => `${Math.max(1, Math.round(s * TIME_SCALE))}s`;
export const rate = (perSecond: number, timeUnit: '1s' | '1m'): number =>
  Math.round(perSecond * RATE_SCALE * (timeUnit === '1m' ? 60 : 1));

/** p95/p99 and error-rate thresholds of one metric name (a route, `route.poll`). */
export function thresholdsOf(route: string, t: Thresholds): Record<string, string[]> {
  const latency = [
    ...(t.p95Ms === undefined ? [] : [`p(95)<=${t.p95Ms}`]),
    ...(t.p99Ms === undefined ? [] : [`p(99)<=${t.p99Ms}`]),
  ];
  return {
    ...(latency.length ? { [`route_duration{route:${route}}`]: latency } : {}),
    [`route_errors{route:${route}}`]: [`rate<=${t.errorRate}`],
  };
}

/** Signs in once for the session routes (LOAD_EMAIL and LOAD_PASSWORD: a user of the keys' client). */
export function signIn(needed: boolean): SetupData {
  if (!needed) return { accessToken: null };
  const email = __ENV.LOAD_EMAIL;
  if (!email) throw new Error('set LOAD_EMAIL and LOAD_PASSWORD for the dashboard route');
  const res = http.post(
    `${BASE_URL}/auth/v1/token?grant_type=password`,
    JSON.stringify({ email, password: __ENV.LOAD_PASSWORD ?? '' }),
    { headers: { 'content-type': 'application/json' } },
  );
  if (res.status !== 200) throw new Error(`signing in as ${email} answered ${res.status}`);
  return { accessToken: res.json('access_token') as string };
}

const NAMES = [
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

function bodyOf(spec: NonNullable<RouteSpec['body']>): string {
  const turn = __VU * 100_000 + __ITER;
  if (spec.kind === 'screen') return JSON.stringify({ name: NAMES[turn % NAMES.length] });
  if (spec.kind === 'bulk')
    return JSON.stringify({
      names: Array.from({ length: spec.names }, (_, i) => `${NAMES[(turn + i) % NAMES.length]} ${i}`),
    });
  return JSON.stringify({ entity_name: `Load Test Entity ${__VU}-${__ITER}-${Date.now()}` });
}

function record(route: string, status: number, duration: number, expect: number, warmupSeconds: number): boolean {
  // Requests of the scenario's warm-up are not judged (the project's runner leaves them out the same way).
  if (exec.instance.currentTestRunDuration < warmupSeconds * TIME_SCALE * 1000)
    return status === expect || status === 429;
  const limited = status === 429;
  routeLimited.add(limited, { route });
  if (limited) return true;
  routeDuration.add(duration, { route });
  routeErrors.add(status !== expect, { route });
  return status === expect;
}

/** One arrival of a route: the call, and for an asynchronous bulk job its polls until it completes. */
export function call(route: string, spec: RouteSpec, data: SetupData, warmupSeconds = 0): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (spec.credentials === 'session') headers.authorization = `Bearer ${data.accessToken}`;
  else headers['x-api-key'] = apiKey();
  const path = spec.paths ? spec.paths[__ITER % spec.paths.length]! : spec.path!;
  const body = spec.body ? bodyOf(spec.body) : null;
  const res = http.request(spec.method, `${BASE_URL}${path}`, body, { headers, tags: { route } });
  const ok = record(route, res.status, res.timings.duration, spec.expect, warmupSeconds);
  check(res, { [`${route}: ${spec.expect} or 429`]: () => ok });
  if (!spec.poll || res.status !== spec.expect) return;
  const started = Date.now();
  const jobPath = spec.poll.path.replace('{id}', encodeURIComponent(res.json('jobId') as string));
  while (Date.now() - started < spec.poll.completion.timeoutSeconds * 1000) {
    sleep(spec.poll.everySeconds);
    const polled = http.get(`${BASE_URL}${jobPath}`, {
      headers: { 'x-api-key': headers['x-api-key']! },
      tags: { route: `${route}.poll` },
    });
    record(`${route}.poll`, polled.status, polled.timings.duration, spec.poll.expect, warmupSeconds);
    if (polled.status === spec.poll.expect && polled.json('status') === 'completed') {
      jobDuration.add(Date.now() - started, { route });
      routeErrors.add((polled.json('failed') as number) > 0, { route: `${route}.job` });
      return;
    }
  }
  routeErrors.add(true, { route: `${route}.job` });
}
