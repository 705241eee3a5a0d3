import { currentRequestId, currentTraceparent, runWithRequestId } from '@vigil/platform';
import type { MonitoringConfig } from '../env.js';
import type { CheckTarget, ChecksRepository } from './checks.repository.js';
import { ChecksScheduler } from './checks.scheduler.js';
import type { ChecksService } from './checks.service.js';

// The resilience suite found one upload's request id on another upload's screenings: the pass an
// upload kicked ran in that request's context, and went on to check entities uploaded after it.
it('runs a pass kicked by a request outside that request, so other work is not logged under its id', async () => {
  const seen: Array<{ requestId: string | undefined; traceparent: string | null }> = [];
  let batches = 1;
  const checks = {
    claimDue: () => Promise.resolve(batches-- > 0 ? [{ id: 'e1' } as CheckTarget] : []),
  } as unknown as ChecksRepository;
  const service = {
    check: () => {
      seen.push({ requestId: currentRequestId(), traceparent: currentTraceparent() });
      return Promise.resolve();
    },
  } as unknown as ChecksService;
  const config = {
    MONITORING_SCHEDULER: true,
    SCHEDULER_BATCH: 10,
    CHECK_LEASE_MS: 1000,
    SCHEDULER_INTERVAL_MS: 60_000,
  };
  const scheduler = new ChecksScheduler(checks, service, config as MonitoringConfig);
  runWithRequestId('upload-request', () => scheduler.kick());
  for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  await scheduler.onApplicationShutdown();
  expect(seen).toEqual([{ requestId: undefined, traceparent: null }]);
});
