// Shared by every k6 scenario: where the gateway is, which keys to use, the calls and
// the pass/fail thresholds (the same targets as npm run bench:gateway).
import { check } from 'k6';
import http from 'k6/http';
import { Rate, Trend } from 'k6/metrics';

export const BASE_URL = (__ENV.GATEWAY_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');

/**
 * API_KEYS: comma-separated client keys. Each key is limited by its tier (large: 500/min),
 * so a load above that needs several keys, or a gateway started with RATE_LIMIT_SCALE.
 */
const KEYS = (__ENV.API_KEYS ?? __ENV.API_KEY ?? '')
  .split(',')
  .map((k) => k.trim())
  .filter(Boolean);

export function apiKey(): string {
  if (KEYS.length === 0) throw new Error('set API_KEYS (or API_KEY) to one or more client API keys');
  return KEYS[(__VU + __ITER) % KEYS.length]!;
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

export const rateLimited = new Rate('rate_limited');
export const screenLatency = new Trend('screen_latency', true);

/** The same targets the issue sets for the gateway: p99 ≤ 25 ms, almost no failures. */
export const THRESHOLDS = {
  http_req_failed: ['rate<0.01'],
  screen_latency: ['p(50)<10', 'p(99)<25'],
  checks: ['rate>0.99'],
};

const headers = () => ({ 'content-type': 'application/json', 'x-api-key': apiKey() });

export function screen(): void {
  const name = NAMES[Math.floor(Math.random() * NAMES.length)]!;
  const res = http.post(`${BASE_URL}/api/v1/screen`, JSON.stringify({ name }), {
    headers: headers(),
    tags: { endpoint: 'screen' },
  });
  rateLimited.add(res.status === 429);
  screenLatency.add(res.timings.duration);
  check(res, {
    'screen: 200': (r) => r.status === 200,
    'screen: rate-limit headers': (r) =>
      r.headers['Ratelimit-Limit'] !== undefined || r.headers['RateLimit-Limit'] !== undefined,
  });
}

export function bulkScreen(size = 25): void {
  const names = Array.from({ length: size }, (_, i) => `${NAMES[i % NAMES.length]} ${i}`);
  const res = http.post(`${BASE_URL}/api/v1/bulk-screen`, JSON.stringify({ names }), {
    headers: headers(),
    tags: { endpoint: 'bulk-screen' },
  });
  check(res, {
    'bulk-screen: 200 with one result per name': (r) =>
      r.status === 200 && (r.json('results') as unknown[]).length === size,
  });
}

export function status(): void {
  const res = http.get(`${BASE_URL}/api/v1/status`, { headers: headers(), tags: { endpoint: 'status' } });
  check(res, { 'status: 200': (r) => r.status === 200 });
}

export function lists(): void {
  const res = http.get(`${BASE_URL}/api/v1/lists`, { headers: headers(), tags: { endpoint: 'lists' } });
  check(res, { 'lists: 200': (r) => r.status === 200 });
}

export function health(): void {
  const res = http.get(`${BASE_URL}/health`, { tags: { endpoint: 'health' } });
  check(res, { 'health: 200': (r) => r.status === 200 });
}
