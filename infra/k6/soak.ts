// Soak: a steady, moderate rate for hours (SOAK_DURATION, default 2h) to find leaks,
// connection-pool exhaustion and slow drifts in latency.
import type { Options } from 'k6/options';
import { THRESHOLDS, screen, status } from './lib.ts';

export const options: Options = {
  scenarios: {
    screen: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE ?? 300),
      timeUnit: '1s',
      duration: __ENV.SOAK_DURATION ?? '2h',
      preAllocatedVUs: 30,
      maxVUs: 200,
    },
    status: {
      executor: 'constant-arrival-rate',
      rate: 5,
      timeUnit: '1s',
      duration: __ENV.SOAK_DURATION ?? '2h',
      preAllocatedVUs: 2,
      exec: 'poll',
    },
  },
  thresholds: THRESHOLDS,
};

export default function soak(): void {
  screen();
}

export function poll(): void {
  status();
}
