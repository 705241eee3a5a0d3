// POST /api/v1/screen and /api/v1/bulk-screen with identifiers, through the gateway to the
// screening service on the bundled sample lists (SDN vessel IRAN HORMUZ 12, IMO 7632826).
import { jest } from '@jest/globals';
import request from 'supertest';
import type { INestApplication } from '@nestjs/common';
import { ApiStack } from './api-stack.js';

jest.setTimeout(120_000);

describe('screening by identifier over HTTP', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  let key: string;
  const post = (path: string, body: object) => request(app.getHttpServer()).post(path).set('x-api-key', key).send(body);

  beforeAll(async () => {
    await stack.start();
    app = await stack.gateway();
    ({ key } = await stack.client('large'));
  });
  afterAll(() => stack.stop());

  it('blocks a listed IMO number given alone and explains it', async () => {
    const res = await post('/api/v1/screen', { identifiers: [{ type: 'imo', value: 'IMO 7632826' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'blocked', blocked: true, searchedName: null });
    expect(res.body.results[0]).toMatchObject({ name: 'IRAN HORMUZ 12', matchedOn: 'identifier', score: 1 });
    expect(res.body.results[0].explanation.text).toContain('SDN-listed IMO number 7632826');
  });

  it('answers a valid unlisted wallet address typed as the name clear', async () => {
    const res = await post('/api/v1/screen', { name: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'clear', results: [] });
  });

  it('refuses a bad check digit, an unknown type and an unknown field with problem+json', async () => {
    const digit = await post('/api/v1/screen', { identifiers: [{ type: 'imo', value: '7632827' }] });
    expect(digit.status).toBe(400);
    expect(digit.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(digit.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(digit.body.errors).toEqual([
      {
        pointer: '/identifiers/0/value',
        detail: '7632827 is not an IMO number (7 digits with a valid check digit)',
      },
    ]);
    const type = await post('/api/v1/screen', { identifiers: [{ type: 'ssn', value: '123' }] });
    expect(type.status).toBe(400);
    expect(type.body.code).toBe('VALIDATION_FAILED');
    const unknown = await post('/api/v1/screen', { identifiers: [{ type: 'imo', value: '7632826', chain: 'ETH' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
  });

  it('screens bulk rows with their identifiers', async () => {
    const res = await post('/api/v1/bulk-screen', {
      entities: [
        { name: 'Some Shipping Company', identifiers: [{ type: 'imo', value: '7632826' }], reference: 'row-1' },
        { name: 'Jane Doe' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['blocked', 'clear']);
    expect(res.body.results[0].reference).toBe('row-1');
    // A row's identifier failing its check digit is refused with the pointer into the request.
    const digit = await post('/api/v1/bulk-screen', {
      entities: [{ name: 'Jane Doe' }, { name: 'Some Ship', identifiers: [{ type: 'imo', value: '7632827' }] }],
    });
    expect(digit.status).toBe(400);
    expect(digit.body.errors[0].pointer).toBe('/entities/1/identifiers/0/value');
  });
});
