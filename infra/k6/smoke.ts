// Smoke: one user for 30 s through every public endpoint. Run after each deploy.
import { sleep } from 'k6';
import type { Options } from 'k6/options';
import { bulkScreen, health, lists, screen, status } from './lib.ts';

export const options: Options = {
  vus: 1,
  duration: __ENV.DURATION ?? '30s',
  thresholds: { http_req_failed: ['rate<0.01'], checks: ['rate==1'] },
};

export default function smoke(): void {
  health();
  status();
  lists();
  screen();
  bulkScreen(10);
  sleep(1);
}
