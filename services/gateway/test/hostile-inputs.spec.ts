// Issue #15, finding 4: a NUL byte, a lone surrogate or an integer past Postgres int4 used to
// answer 500 on these inputs. The edge refuses them with 400 problem+json VALIDATION_FAILED.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(180_000);

const PASSWORD = 'hostile-inputs-passphrase';
const NUL = 'Kim\u0000Jong';
const LONE = 'Kim \ud800 Jong';
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

type Who = 'key' | 'dashboard' | 'session' | 'anyone';
type Input = {
  name: string;
  who: Who;
  method: 'get' | 'post' | 'put';
  path: string;
  query?: Record<string, string>;
  /** A JSON body built around the hostile string. */
  body?: (text: string) => object;
  /** A CSV file built around the hostile string (multipart upload). */
  csv?: (text: string) => string;
};

const INPUTS: Input[] = [
  { name: 'screen (API v1)', who: 'key', method: 'post', path: '/api/v1/screen', body: (t) => ({ name: t }) },
  { name: 'screen (dashboard)', who: 'dashboard', method: 'post', path: '/api/screen', body: (t) => ({ name: t }) },
  {
    name: 'bulk (API v1)',
    who: 'key',
    method: 'post',
    path: '/api/v1/bulk-screen',
    body: (t) => ({ names: ['Jane Doe', t] }),
  },
  {
    name: 'bulk (dashboard)',
    who: 'dashboard',
    method: 'post',
    path: '/api/sanctions/bulk-search',
    body: (t) => ({ names: [t] }),
  },
  { name: 'logs search', who: 'dashboard', method: 'get', path: '/api/client/logs', query: { searchedName: NUL } },
  {
    name: 'list entries',
    who: 'dashboard',
    method: 'get',
    path: `/api/client/lists/${SAMPLE_ID}/entries`,
    query: { search: NUL },
  },
  { name: 'search', who: 'dashboard', method: 'get', path: '/api/sanctions/search', query: { query: NUL } },
  { name: 'datasets', who: 'dashboard', method: 'get', path: '/api/sanctions/datasets', query: { source: NUL } },
  { name: 'entity', who: 'dashboard', method: 'get', path: `/api/sanctions/entity/${encodeURIComponent(NUL)}` },
  {
    name: 'sign-up',
    who: 'anyone',
    method: 'post',
    path: '/auth/v1/signup',
    body: (t) => ({
      full_name: t,
      email: 'hostile-signup@example.com',
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
    }),
  },
  { name: 'user update', who: 'session', method: 'put', path: '/auth/v1/user', body: (t) => ({ full_name: t }) },
  { name: 'factors', who: 'session', method: 'post', path: '/auth/v1/factors', body: (t) => ({ friendly_name: t }) },
  {
    name: 'settings profile',
    who: 'session',
    method: 'put',
    path: '/api/settings/profile',
    body: (t) => ({ client_name: t, contact_email: 'hostile@example.com' }),
  },
  {
    name: 'checkout sessions',
    who: 'session',
    method: 'get',
    path: `/api/payment/sandbox/sessions/${encodeURIComponent(NUL)}`,
  },
  {
    name: 'CSV upload',
    who: 'dashboard',
    method: 'post',
    path: '/api/client-lists/upload-csv',
    csv: (t) => `name,email\nJane Doe,jane@example.com\n${t},kim@example.com\n`,
  },
];

describe('hostile inputs are refused at the edge with 400 problem+json', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  let member: { id: string; key: string; token: string };

  function headers(who: Who): Record<string, string> {
    if (who === 'key') return { 'x-api-key': member.key };
    if (who === 'dashboard') return { 'x-api-key': member.key, authorization: `Bearer ${member.token}` };
    if (who === 'session') return { authorization: `Bearer ${member.token}` };
    return {};
  }

  function send(input: Input, text: string) {
    const req = http()[input.method](input.path).set(headers(input.who));
    if (input.query) req.query(input.query);
    if (input.csv) return req.attach('file', Buffer.from(input.csv(text), 'utf8'), 'customers.csv');
    return input.body ? req.send(input.body(text)) : req;
  }

  function expectRefused(res: request.Response, what: string) {
    expect([what, res.status, res.body.code]).toEqual([what, 400, 'VALIDATION_FAILED']);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  }

  beforeAll(async () => {
    await stack.start(['auth', 'screening', 'monitoring']);
    app = await stack.gateway();
    member = await stack.member(app, 'large', 'hostile@example.com', PASSWORD);
  });

  afterAll(() => stack.stop());

  it('covers the fifteen inputs of the report', () => {
    expect(INPUTS).toHaveLength(15);
  });

  it.each(INPUTS.map((i) => [i.name, i] as const))('%s: a NUL byte', async (name, input) => {
    expectRefused(await send(input, NUL), name);
  });

  it.each(INPUTS.filter((i) => i.body || i.csv).map((i) => [i.name, i] as const))(
    '%s: a lone surrogate',
    async (name, input) => {
      const res = input.csv
        ? await http()
            .post(input.path)
            .set(headers(input.who))
            // A surrogate half encoded as if it were a character (CESU-8): not UTF-8 at all.
            .attach(
              'file',
              Buffer.concat([Buffer.from('name\nKim '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(' Jong\n')]),
              'customers.csv',
            )
        : await send(input, LONE);
      expectRefused(res, name);
    },
  );

  it('names the field that carries the character', async () => {
    const res = await http()
      .post('/api/v1/bulk-screen')
      .set(headers('key'))
      .send({ names: ['Jane Doe', NUL] });
    expectRefused(res, 'bulk');
    expect(res.body.errors).toEqual([{ pointer: '/names/1', detail: expect.stringMatching(/NUL/) }]);
  });

  it.each([
    ['bulk job paging', `/api/v1/jobs/{job}`],
    ['logs', '/api/client/logs'],
    ['sanction alerts', '/api/client/sanction-alerts'],
    ['review queue', '/api/sanctions/review'],
    ['list entries', `/api/client/lists/${SAMPLE_ID}/entries`],
  ])('%s: offset=2147483648 (past int4)', async (name, path) => {
    let target = path;
    if (path.includes('{job}')) {
      const names = Array.from({ length: 1_001 }, (_, i) => `Applicant ${i}`);
      const job = await http().post('/api/v1/bulk-screen').set(headers('key')).send({ names });
      expect(job.status).toBe(202);
      target = path.replace('{job}', job.body.jobId);
    }
    const res = await http().get(target).query({ offset: '2147483648' }).set(headers('dashboard'));
    expectRefused(res, name);
  });
});
