// Load: ramp to the target rate of single screenings (RATE, default 1,000/s), hold it,
// ramp down. Fails if p99 goes over 25 ms or more than 1% of requests fail.
import type { Options } from 'k6/options';
import { THRESHOLDS, screen } from './lib.ts';

const RATE = Number(__ENV.RATE ?? 1_000);

export const options: Options = {
  scenarios: {
    screen: {
      executor: 'ramping-arrival-rate',
      startRate: Math.ceil(RATE / 10),
      timeUnit: '1s',
      preAllocatedVUs: 50,
      maxVUs: 500,
      stages: [
        { target: RATE, duration: __ENV.RAMP ?? '1m' },
        { target: RATE, duration: __ENV.HOLD ?? '5m' },
        { target: 0, duration: '30s' },
      ],
    },
  },
  thresholds: THRESHOLDS,
};

export default function load(): void {
  screen();
}
