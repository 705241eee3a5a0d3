// POST /api/v1/screen answers screening's bytes as they are, and by default explains only the
// flagged results (review, blocked); ?explain=full gives every result in full, as before.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { SERVICES_DIR } from './stack.js';

jest.setTimeout(180_000);

type Result = { id: string; name: string; score: number; status?: string; explanation?: { text: string } };
type Answer = { screeningId: string; status: string; results: Result[] };

describe('POST /api/v1/screen answer', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const screen = (key: string, body: object, query = '') =>
    http().post(`/api/v1/screen${query}`).set('x-api-key', key).send(body);

  beforeAll(async () => {
    await stack.start();
    app = await stack.gateway();
  });
  afterAll(() => stack.stop());

  it('summarises clear candidates by default and gives every result in full with ?explain=full', async () => {
    const { key } = await stack.client('large');
    const summary = await screen(key, { name: 'Vladimir Putin', entityType: 'individual' });
    const full = await screen(key, { name: 'Vladimir Putin', entityType: 'individual' }, '?explain=full');
    expect([summary.status, full.status]).toEqual([200, 200]);
    expect(summary.headers['content-type']).toBe('application/json; charset=utf-8');
    const [a, b] = [summary.body as Answer, full.body as Answer];
    expect(a.results.map((r) => r.id)).toEqual(b.results.map((r) => r.id));
    expect(b.results.every((r) => r.explanation !== undefined && r.status !== undefined)).toBe(true);
    for (const [k, r] of a.results.entries()) {
      if (b.results[k]!.status === 'clear')
        expect(r).toEqual({ id: r.id, name: b.results[k]!.name, score: b.results[k]!.score });
      else expect(r).toEqual(b.results[k]);
    }
    const invalid = await screen(key, { name: 'Vladimir Putin' }, '?explain=everything');
    expect([invalid.status, invalid.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('sends fewer bytes per answer by default over the development queries', async () => {
    const { key } = await stack.client('large');
    const queries = readFileSync(join(SERVICES_DIR, '..', '..', 'shared', 'eval', 'dev-queries.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { query: { name?: string } }).query)
      .filter((q) => q.name)
      .slice(0, 100);
    let [summaryBytes, fullBytes] = [0, 0];
    for (const q of queries) {
      summaryBytes += (await screen(key, { name: q.name })).text.length;
      fullBytes += (await screen(key, { name: q.name }, '?explain=full')).text.length;
    }
    const perAnswer = {
      default: Math.round(summaryBytes / queries.length),
      full: Math.round(fullBytes / queries.length),
    };
    console.log(`bytes per answer over ${queries.length} development queries: ${JSON.stringify(perAnswer)}`);
    expect(perAnswer.default).toBeLessThan(perAnswer.full);
  });

  it('documents explain in the OpenAPI document', async () => {
    const spec = (await http().get('/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; description?: string }> }>>;
    };
    const explain = spec.paths['/api/v1/screen']!.post!.parameters?.find((p) => p.name === 'explain');
    expect(explain).toMatchObject({ in: 'query' });
    expect(JSON.stringify(explain)).toContain('summarised as id, name and score');
  });
});
