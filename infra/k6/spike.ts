// Spike: from a trickle to SPIKE_RATE (default 2,000/s) in ten seconds, a minute there,
// then back. The gateway must shed what exceeds each client's tier with 429s (counted in
// rate_limited), keep answering the rest, and recover its latency once the spike is gone.
import type { Options } from 'k6/options';
import { screen, screenLatency } from './lib.ts';

const SPIKE = Number(__ENV.SPIKE_RATE ?? 2_000);

export const options: Options = {
  scenarios: {
    spike: {
      executor: 'ramping-arrival-rate',
      startRate: 50,
      timeUnit: '1s',
      preAllocatedVUs: 100,
      maxVUs: 1_000,
      stages: [
        { target: 50, duration: '30s' },
        { target: SPIKE, duration: '10s' },
        { target: SPIKE, duration: '1m' },
        { target: 50, duration: '10s' },
        { target: 50, duration: '1m' },
      ],
    },
  },
  thresholds: {
    // 429s are the expected answer to excess load; errors and 5xx are not.
    'http_req_failed{expected_response:false}': ['rate<0.05'],
    screen_latency: ['p(99)<250'],
  },
};

export { screenLatency };

export default function spike(): void {
  screen();
}
