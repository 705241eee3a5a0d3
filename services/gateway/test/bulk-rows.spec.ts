import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(180_000);

// Issue #35: a bulk row takes every field a single screen takes (date of birth, nationality, type,
// customer reference) and the client's own `reference`, echoed in its result; an asynchronous
// job's rows say which list versions and algorithm screened them, and its results page by cursor.

const MADURO = { name: 'Nicolas Maduro Moros', dateOfBirth: '1962-11-23', nationality: 'VE', entityType: 'person' };

describe('bulk rows with a single screen’s fields and a client reference', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  let key: string;
  const http = () => request(app.getHttpServer());
  const post = (path: string, body: object) => http().post(path).set('x-api-key', key).send(body);

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway({ BULK_CHUNK_SIZE: '400' });
    key = (await stack.client('large')).key;
  });
  afterAll(() => stack.stop());

  it('screens each row as the single screen would, and echoes its reference', async () => {
    const wrongBirth = { ...MADURO, dateOfBirth: '1990-01-01', nationality: 'NO' };
    const res = await post('/api/v1/bulk-screen', {
      entities: [
        { ...MADURO, customerReference: 'CUST-1', reference: 'row-a' },
        { ...wrongBirth, reference: 'row-b' },
        { name: 'Zebedee Quortlebank' },
      ],
    });
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.results;
    expect([a.reference, b.reference, c.reference]).toEqual(['row-a', 'row-b', undefined]);
    expect(res.body.listVersions.length).toBeGreaterThan(0);
    expect(res.body.algorithm).toEqual(expect.any(String));
    // The qualifiers reach the engine: the same scores as single screens with the same fields.
    for (const [row, entity] of [
      [a, MADURO],
      [b, wrongBirth],
    ] as const) {
      const single = await post('/api/v1/screen', entity);
      expect(single.status).toBe(200);
      expect(row.topScore).toBeCloseTo(single.body.topScore, 6);
    }
    expect(a.topScore).toBeGreaterThan(b.topScore);
  });

  it('refuses both names and entities, and a row field it does not know, with a pointer', async () => {
    const both = await post('/api/v1/bulk-screen', { names: ['A'], entities: [{ name: 'A' }] });
    expect([both.status, both.body.code, both.body.errors[0].pointer]).toEqual([400, 'VALIDATION_FAILED', '/names']);
    const typo = await post('/api/v1/bulk-screen', { entities: [{ name: 'A', dob: '1962' }] });
    expect([typo.status, typo.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    // The pointer names the field itself (the gateway's unknown-field check, api2).
    expect(typo.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/entities/0/dob');
  });

  it('runs 1,001 rows as a job whose results carry references, list versions and algorithm, paged by cursor', async () => {
    const entities = Array.from({ length: 1_001 }, (_, i) => ({
      name: `Applicant ${i} ${['Ivanov', 'Smith', 'Hassan'][i % 3]}`,
      nationality: 'GB',
      reference: `ref-${i}`,
    }));
    const accepted = await post('/api/v1/bulk-screen', { entities });
    expect(accepted.status).toBe(202);
    const jobUrl = accepted.headers.location as string;
    const page = (offset: number, limit: number) =>
      http().get(`${jobUrl}?offset=${offset}&limit=${limit}`).set('x-api-key', key);
    for (let job = (await page(0, 1)).body; job.status !== 'completed'; job = (await page(0, 1)).body)
      await new Promise((r) => setTimeout(r, 200));

    const rows: Array<{ row: number; reference: string; listVersions: unknown[]; algorithm: string }> = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const res = await page(offset, 400);
      expect(res.status).toBe(200);
      rows.push(...res.body.results);
      pages++;
      expect(res.body.page.has_more).toBe(res.body.page.next_offset !== null);
      offset = res.body.page.next_offset;
    }
    expect(pages).toBe(3);
    expect(rows.map((r) => r.row)).toEqual(entities.map((_, i) => i));
    expect(rows.map((r) => r.reference)).toEqual(entities.map((e) => e.reference));
    for (const r of rows) {
      expect(r.listVersions.length).toBeGreaterThan(0);
      expect(r.algorithm).toEqual(expect.any(String));
    }
  });
});
