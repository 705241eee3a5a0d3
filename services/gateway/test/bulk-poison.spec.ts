// Issue #15, finding 4 (second half): a bulk job whose input makes the worker fail used to be
// redelivered forever (nak, unlimited max_deliver) or dropped unfinished (term): the job never
// completed. Now a chunk is retried a bounded number of times, then each of its rows gets either
// its result or a failure with its reason, and the job completes.
import { jest } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import type { INestApplication } from '@nestjs/common';
import { FEEDS, subjects } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(180_000);

describe('a poison bulk job finishes', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  let client: { id: string; key: string };

  beforeAll(async () => {
    await stack.start();
    app = await stack.gateway({ BULK_ACK_WAIT_MS: '2000', BULK_MAX_DELIVERIES: '3' });
    client = await stack.client('large');
  });

  afterAll(() => stack.stop());

  /** Queues a chunk as BulkJobs.submit would, but with whatever payload the test wants (the edge would refuse it). */
  async function queue(names: unknown[], extra: Record<string, unknown> = {}) {
    const jobId = randomUUID();
    await stack.sql('gateway', `INSERT INTO bulk_jobs (id, client_id, total, status) VALUES ($1, $2, $3, 'queued')`, [
      jobId,
      client.id,
      names.length,
    ]);
    const nc = await stack.connectNats();
    try {
      await jetstream(nc).publish(
        subjects.gateway.bulkChunk,
        JSON.stringify({
          jobId,
          clientId: client.id,
          firstRow: 0,
          names,
          caller: { clientId: client.id, tier: 'large', feeds: [...FEEDS] },
          limit: 3,
          ...extra,
        }),
        { msgID: `${jobId}:0` },
      );
    } finally {
      await nc.close();
    }
    return jobId;
  }

  async function finished(jobId: string) {
    for (const started = Date.now(); Date.now() - started < 60_000;) {
      const res = await http().get(`/api/v1/jobs/${jobId}`).set('x-api-key', client.key);
      if (res.body.status === 'completed') return res.body;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`job ${jobId} did not complete in 60 s`);
  }

  it('screens the good rows and fails only the row screening refuses, with its reason', async () => {
    const jobId = await queue(['Jane Doe', 'Kim\u0000Jong', 'John Smith']);
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: 'completed', total: 3, processed: 3, failed: 1 });
    expect(job.results.map((r: { row: number }) => r.row)).toEqual([0, 1, 2]);
    expect(job.results[0]).toMatchObject({ searchedName: 'Jane Doe', status: expect.any(String) });
    expect(job.results[1]).toMatchObject({
      searchedName: 'Kim\uFFFDJong',
      status: 'failed',
      error: { code: 'VALIDATION_FAILED', detail: expect.stringMatching(/not valid text|NUL/) },
    });
    expect(job.results[2]).toMatchObject({ searchedName: 'John Smith', status: expect.any(String) });
    const csv = await http().get(`/api/v1/jobs/${jobId}`).query({ format: 'csv' }).set('x-api-key', client.key);
    expect(csv.text.split(/\r?\n/)[2]).toMatch(/^1,Kim\uFFFDJong,,,failed,,/);
  });

  it('fails every row of a chunk the worker cannot read, without redelivering it', async () => {
    const jobId = await queue(['Jane Doe', 'John Smith'], { limit: 500 });
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: 'completed', total: 2, processed: 2, failed: 2 });
    expect(job.results[0]).toMatchObject({ status: 'failed', error: { code: 'VALIDATION_FAILED' } });
  });

  it('stops retrying a chunk that keeps failing after BULK_MAX_DELIVERIES, and says why', async () => {
    // Screening gone for good: each delivery fails as an outage would, never as invalid input.
    const screening = stack.services.get('screening')!;
    await new Promise<void>((resolve) => {
      screening.once('exit', () => resolve());
      screening.kill('SIGKILL');
    });
    const started = Date.now();
    const jobId = await queue(['Jane Doe', 'John Smith']);
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: 'completed', total: 2, processed: 2, failed: 2 });
    expect(job.results[1]).toMatchObject({
      searchedName: 'John Smith',
      status: 'failed',
      error: { code: expect.stringMatching(/^(SERVICE_UNAVAILABLE|UPSTREAM_TIMEOUT)$/) },
    });
    // Three deliveries, 1 s and 2 s apart: retried, but not forever.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
  });
});
