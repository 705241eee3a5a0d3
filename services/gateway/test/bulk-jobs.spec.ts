import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import type { ChildProcess } from 'node:child_process';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(180_000);

const TOTAL = 10_000;

describe('asynchronous bulk jobs on the JetStream work queue', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  // Short ack wait so a chunk held by a killed worker comes back quickly.
  const workerEnv = { BULK_ACK_WAIT_MS: '2000', BULK_CHUNK_SIZE: '250', BULK_SCREEN_TIMEOUT_MS: '3000' };

  beforeAll(async () => {
    await stack.start();
    // This gateway only queues: every chunk is screened by the worker processes below.
    app = await stack.gateway({ BULK_WORKER: 'false', ...workerEnv });
  });

  afterAll(() => stack.stop());

  async function kill9(worker: ChildProcess) {
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.kill('SIGKILL');
    });
  }

  it('takes a 100,000-name batch body (several MiB) but no body over 1 MiB elsewhere', async () => {
    const client = await stack.client('large');
    const tooMany = Array.from({ length: 100_001 }, (_, i) => `Applicant Number ${i}`);
    const rejected = await http().post('/api/v1/bulk-screen').set('x-api-key', client.key).send({ names: tooMany });
    expect(rejected.status).toBe(400);
    expect(rejected.body.code).toBe('VALIDATION_FAILED');
    expect(rejected.body.errors[0].pointer).toBe('/names');
    const big = await http()
      .post('/api/v1/screen')
      .set('x-api-key', client.key)
      .send({ name: 'x'.repeat(1_100_000) });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('finishes a 10,000-name job with exactly one result per row although its worker and then the screening service are killed -9 mid-way', async () => {
    const client = await stack.client('large');
    const names = Array.from(
      { length: TOTAL },
      (_, i) => `Applicant ${i} ${['Ivanov', 'Smith', 'Hassan', 'Garcia', 'Kim'][i % 5]}`,
    );
    const accepted = await http().post('/api/v1/bulk-screen').set('x-api-key', client.key).send({ names });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.location).toBe(`/api/v1/jobs/${accepted.body.jobId}`);
    expect(accepted.body).toMatchObject({ status: 'queued', total: TOTAL });
    const jobUrl = accepted.headers.location as string;

    let worker = stack.spawnBulkWorker(workerEnv);
    const progress: number[] = [];
    const poll = async () => {
      const res = await http().get(`${jobUrl}?limit=1`).set('x-api-key', client.key);
      expect(res.status).toBe(200);
      progress.push(res.body.processed);
      return res.body as { processed: number; status: string; completedAt: string | null };
    };

    // Kill the worker at a random point once it is under way.
    const killAt = 500 + Math.floor(Math.random() * (TOTAL / 2));
    for (let job = await poll(); job.processed < killAt; job = await poll()) {
      if (job.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await kill9(worker);
    const atKill = progress[progress.length - 1]!;
    expect(atKill).toBeLessThan(TOTAL);
    worker = stack.spawnBulkWorker(workerEnv);

    // Then the screening service itself dies mid-chunk: chunks time out, are retried, and finish once it is back.
    let job = await poll();
    while (job.processed < Math.min(TOTAL - 1_000, atKill + 1_000) && job.status !== 'completed') {
      await new Promise((r) => setTimeout(r, 50));
      job = await poll();
    }
    await kill9(stack.services.get('screening')!);
    const atScreeningKill = (await poll()).processed;
    stack.spawnService('screening');
    expect(atScreeningKill).toBeLessThan(TOTAL);

    const deadline = Date.now() + 150_000;
    while (job.status !== 'completed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      job = await poll();
    }
    expect(job.status).toBe('completed');
    expect(job.processed).toBe(TOTAL);
    expect(job.completedAt).not.toBeNull();
    // Progress never went backwards.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const rows: number[] = [];
    for (let offset = 0; offset < TOTAL; offset += 1_000) {
      const page = await http().get(`${jobUrl}?offset=${offset}&limit=1000`).set('x-api-key', client.key);
      for (const item of page.body.results as Array<{ row: number; searchedName: string }>) {
        expect(item.searchedName).toBe(names[item.row]);
        rows.push(item.row);
      }
    }
    expect(rows).toHaveLength(TOTAL);
    expect(new Set(rows).size).toBe(TOTAL);
    const [stored] = await stack.sql(
      'gateway',
      `SELECT count(*)::int AS n, count(DISTINCT row_index)::int AS d FROM bulk_job_results`,
    );
    expect(stored).toEqual({ n: TOTAL, d: TOTAL });

    const csv = await http()
      .get(`${jobUrl}?format=csv`)
      .set('x-api-key', client.key)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = (csv.body as string).trimEnd().split('\n');
    expect(lines).toHaveLength(TOTAL + 1);
    expect(lines[1]).toMatch(/^0,Applicant 0 Ivanov,/);

    // The whole batch counted once against the quota.
    expect((await http().get('/api/v1/status').set('x-api-key', client.key)).body.usage).toBe(TOTAL);
    await kill9(worker);
  });
});
