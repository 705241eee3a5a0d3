import { jest } from '@jest/globals';
import { REVIEW_BAND_NAMES } from '@vigil/platform/testing';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(180_000);

const PASSWORD = 'dashboard-routes-passphrase';

// Names whose top match falls in each band with the sample lists and the default thresholds
// (blocked ≥ 0.85, review ≥ 0.6); the tests check the band before relying on it.
const BLOCKED_NAME = 'Kim Jong Un';
const CLEAR_NAME = 'Zebedee Quortlebank';
const REVIEW_CANDIDATES = REVIEW_BAND_NAMES;

describe('dashboard routes: logs, sanction alerts, review queue and client lists, one client at a time', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  type Member = { id: string; key: string; token: string };
  let a: Member;
  let b: Member;
  const as = (m: Member) => ({ 'x-api-key': m.key, authorization: `Bearer ${m.token}` });

  beforeAll(async () => {
    await stack.start(['auth', 'screening', 'monitoring']);
    app = await stack.gateway();
    a = await member('large', 'routes-a@example.com');
    b = await member('large', 'routes-b@example.com');
  });

  afterAll(() => stack.stop());

  /** A confirmed user attached to a new client, signed in: its key and its session token. */
  const member = (tier: 'starter' | 'large', email: string) => stack.member(app, tier, email, PASSWORD);

  async function screen(m: Member, name: string) {
    const res = await http().post('/api/screen').set(as(m)).send({ name });
    expect(res.status).toBe(200);
    return res.body as { status: 'blocked' | 'review' | 'clear'; blocked: boolean; id: string | null };
  }

  function expectProblem(res: request.Response, status: number, code: string, what = '') {
    expect([what, res.status, res.body.code]).toEqual([what, status, code]);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  }

  it('lists the client’s own screening logs newest first, with name, match, date filters and paging', async () => {
    expect((await screen(a, CLEAR_NAME)).status).toBe('clear');
    expect((await screen(a, BLOCKED_NAME)).status).toBe('blocked');
    await screen(b, 'Someone Only B Screened');

    const all = await http().get('/api/client/logs').set(as(a));
    expect(all.status).toBe(200);
    expect(all.body.logs.map((l: { searched_name: string }) => l.searched_name)).toEqual([BLOCKED_NAME, CLEAR_NAME]);
    expect(all.body).toMatchObject({
      total: 2,
      limit: 100,
      offset: 0,
      counts: { all: 2, matches: 1, alerts: 1, clear: 1 },
    });
    expect(all.body.logs[0]).toMatchObject({
      client_id: a.id,
      match_found: true,
      status: 'blocked',
      is_alert: true,
      tier: 'large',
      sanctioned_entity_id: expect.any(String),
      matched_entity_name: expect.any(String),
      source_list: expect.any(String),
    });
    expect(all.body.logs[0].score).toBeGreaterThanOrEqual(0.85);
    expect(Date.parse(all.body.logs[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(all.body.logs[1].createdAt));

    const get = (query: Record<string, string | number>) => http().get('/api/client/logs').query(query).set(as(a));
    const names = async (query: Record<string, string | number>) => {
      const res = await get(query);
      expect(res.status).toBe(200);
      return res.body.logs.map((l: { searched_name: string }) => l.searched_name);
    };
    expect(await names({ matchFound: 'true' })).toEqual([BLOCKED_NAME]);
    // The tabs' counts follow the name and date filters, not matchFound.
    expect((await get({ matchFound: 'true' })).body.counts).toEqual({ all: 2, matches: 1, alerts: 1, clear: 1 });
    expect((await get({ searchedName: 'ZEBEDEE' })).body.counts).toEqual({ all: 1, matches: 0, alerts: 0, clear: 1 });
    expect(await names({ matchFound: 'false' })).toEqual([CLEAR_NAME]);
    expect(await names({ searchedName: 'jong' })).toEqual([BLOCKED_NAME]);
    expect(await names({ searchedName: 'nobody-has-this' })).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await names({ fromDate: today, toDate: today })).toHaveLength(2);
    expect(await names({ fromDate: tomorrow })).toEqual([]);
    expect(await names({ toDate: yesterday })).toEqual([]);
    expect(await names({ limit: 1 })).toEqual([BLOCKED_NAME]);
    const second = await get({ limit: 1, offset: 1 });
    expect(second.body).toMatchObject({ total: 2, logs: [{ searched_name: CLEAR_NAME }] });
    expect((await get({ offset: 5 })).body).toMatchObject({ total: 2, logs: [] });

    const theirs = await http().get('/api/client/logs').set(as(b));
    expect(theirs.body.logs.map((l: { searched_name: string }) => l.searched_name)).toEqual([
      'Someone Only B Screened',
    ]);
  });

  it('lists a blocked screening as a sanction alert of that client only', async () => {
    const alerts = await http().get('/api/client/sanction-alerts').set(as(a));
    expect(alerts.status).toBe(200);
    expect(alerts.body.alerts).toHaveLength(1);
    expect(alerts.body).toMatchObject({ total: 1, unreviewed: 1 });
    expect(alerts.body.alerts[0]).toMatchObject({
      client_id: a.id,
      full_name: BLOCKED_NAME,
      matched_entity_id: expect.any(String),
      matched_name: expect.any(String),
      reviewed: false,
    });
    expect(alerts.body.alerts[0].risk_score).toBeGreaterThanOrEqual(0.85);
    expect((await http().get('/api/client/sanction-alerts').set(as(b))).body).toMatchObject({ alerts: [], total: 0 });
  });

  it('puts a review-band screening in the review queue; approve decides it once, and only for its client', async () => {
    let reviewName: string | undefined;
    for (const name of REVIEW_CANDIDATES) {
      if ((await screen(a, name)).status === 'review') {
        reviewName = name;
        break;
      }
    }
    expect(reviewName).toBeDefined();
    const pending = await http().get('/api/sanctions/review?status=pending').set(as(a));
    expect(pending.status).toBe(200);
    const review = pending.body.reviews.find((r: { searched_input: string }) => r.searched_input === reviewName);
    expect(review).toMatchObject({ status: 'pending', matched_entity_id: expect.any(String), decided_at: null });
    expect(review.screening_score).toBeGreaterThanOrEqual(0.6);
    expect(review.screening_score).toBeLessThan(0.85);

    const url = `/api/sanctions/review/${review.id}`;
    expectProblem(
      await http().post(`${url}?action=approve`).set(as(b)).send({ reasonCode: 'name_only_coincidence' }),
      404,
      'NOT_FOUND',
    );
    expect((await http().get('/api/sanctions/review').set(as(b))).body.reviews).toEqual([]);

    const approved = await http()
      .post(`${url}?action=approve`)
      .set(as(a))
      .send({ reasonCode: 'name_only_coincidence' });
    expect(approved.status).toBe(200);
    expect(approved.body.review).toMatchObject({ id: review.id, status: 'approved', decided_at: expect.any(String) });
    expectProblem(
      await http().post(`${url}?action=block`).set(as(a)).send({ reasonCode: 'confirmed_match' }),
      409,
      'CONFLICT',
    );

    const byStatus = async (status?: string) =>
      (
        await http()
          .get('/api/sanctions/review')
          .query(status ? { status } : {})
          .set(as(a))
      ).body.reviews.map((r: { id: string }) => r.id);
    expect(await byStatus('approved')).toEqual([review.id]);
    expect(await byStatus('pending')).not.toContain(review.id);
    expect(await byStatus()).toContain(review.id);
    const counts = (await http().get('/api/sanctions/review?status=approved').set(as(a))).body.counts;
    expect(counts).toMatchObject({ approved: 1, blocked: 0 });
    expect(counts.all).toBe(counts.pending + counts.proposed + counts.approved + counts.blocked);
  });

  it('uploads a CSV list, lists it, downloads the same rows, deletes it; another client sees none of it', async () => {
    const csv =
      'name,email,aliases\r\n' +
      '"Doe, Jane",jane@example.com,J. Doe;Janie\r\n' +
      'Ali Hassan,,\r\n' +
      'Marie Curie,marie@example.org,"M. Curie; ""Madame"""\r\n';
    const uploaded = await http()
      .post('/api/client-lists/upload-csv')
      .set(as(a))
      .field('name', 'Private customers')
      .field('description', 'Retail book')
      .attach('file', Buffer.from(csv), { filename: 'customers.csv', contentType: 'text/csv' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({
      name: 'Private customers',
      description: 'Retail book',
      file_name: 'customers.csv',
      count: 3,
    });
    const id = uploaded.body.id as string;

    const mine = await http().get('/api/client/lists').set(as(a));
    expect(mine.status).toBe(200);
    expect(mine.body.lists.map((l: { id: string }) => l.id)).toEqual([id]);
    expect((await http().get('/api/client/lists').set(as(b))).body.lists).toEqual([]);

    const download = await http().get(`/api/client/lists/download/${id}`).set(as(a));
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toMatch(/text\/csv/);
    expect(download.headers['content-disposition']).toMatch(/Private_customers\.csv/);
    expect(download.text).toBe(
      'name,email,aliases\r\n' +
        // Aliases are joined with ; and quoted, so a semicolon-locale spreadsheet keeps them in one cell.
        '"Doe, Jane",jane@example.com,"J. Doe;Janie"\r\n' +
        'Ali Hassan,,\r\n' +
        'Marie Curie,marie@example.org,"M. Curie;""Madame"""\r\n',
    );

    const entries = async (query: Record<string, string | number>) => {
      const res = await http().get(`/api/client/lists/${id}/entries`).query(query).set(as(a));
      expect(res.status).toBe(200);
      return res.body;
    };
    const page = await entries({});
    expect(page).toMatchObject({ list: { id, count: 3 }, total: 3, limit: 100, offset: 0 });
    expect(page.entries[0]).toMatchObject({
      id: expect.any(String),
      name: 'Doe, Jane',
      email: 'jane@example.com',
      aliases: ['J. Doe', 'Janie'],
      added_at: expect.any(String),
    });
    const found = async (search: string) =>
      (await entries({ search })).entries.map((e: { name: string }) => e.name) as string[];
    expect(await found('MARIE@')).toEqual(['Marie Curie']);
    expect(await found('janie')).toEqual(['Doe, Jane']);
    expect(await found('hassan')).toEqual(['Ali Hassan']);
    expect(await found('%')).toEqual([]);
    expect(await entries({ limit: 1, offset: 2 })).toMatchObject({ total: 3, entries: [{ name: 'Marie Curie' }] });

    expectProblem(await http().get(`/api/client/lists/${id}/entries`).set(as(b)), 404, 'NOT_FOUND');
    expectProblem(await http().get(`/api/client/lists/download/${id}`).set(as(b)), 404, 'NOT_FOUND');
    expectProblem(await http().delete(`/api/client-lists/${id}`).set(as(b)), 404, 'NOT_FOUND');
    expect((await http().get('/api/client/lists').set(as(a))).body.lists).toHaveLength(1);

    const deleted = await http().delete(`/api/client-lists/${id}`).set(as(a));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deleted: true });
    expect((await http().get('/api/client/lists').set(as(a))).body.lists).toEqual([]);
    expectProblem(await http().get(`/api/client/lists/download/${id}`).set(as(a)), 404, 'NOT_FOUND');
    expectProblem(await http().delete(`/api/client-lists/${id}`).set(as(a)), 404, 'NOT_FOUND');
    expect(await stack.sql('monitoring', 'SELECT count(*)::int AS n FROM client_list_entries')).toEqual([{ n: 0 }]);
  });

  it('takes a multi-part upload (a list over 1 MiB) and pages its download', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `Customer Number ${i} ${'x'.repeat(40)},c${i}@example.com,`);
    const csv = 'name,email,aliases\n' + rows.join('\n') + '\n';
    expect(Buffer.byteLength(csv)).toBeGreaterThan(1024 * 1024);
    const uploaded = await http()
      .post('/api/client-lists/upload-csv')
      .set(as(a))
      .attach('file', Buffer.from(csv), { filename: 'big book.csv', contentType: 'text/csv' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ name: 'big book', count: 20_000 });
    const download = await http().get(`/api/client/lists/download/${uploaded.body.id}`).set(as(a));
    expect(download.status).toBe(200);
    const lines = download.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(20_001);
    expect(lines[20_000]).toBe(`Customer Number 19999 ${'x'.repeat(40)},c19999@example.com,`);
    expect(await stack.sql('monitoring', 'SELECT count(*)::int AS n FROM client_list_upload_parts')).toEqual([
      { n: 0 },
    ]);
    expect((await http().delete(`/api/client-lists/${uploaded.body.id}`).set(as(a))).status).toBe(200);
  });

  it('refuses bad input on every new route with a problem+json 400 (413 for a file over 10 MB), never a 500', async () => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const bad: Array<[request.Test, number, string, string?]> = [
      [http().get('/api/client/logs?matchFound=maybe').set(as(a)), 400, 'VALIDATION_FAILED', '/matchFound'],
      [http().get('/api/client/logs?limit=0').set(as(a)), 400, 'VALIDATION_FAILED', '/limit'],
      [http().get('/api/client/logs?limit=501').set(as(a)), 400, 'VALIDATION_FAILED', '/limit'],
      [http().get('/api/client/logs?offset=-1').set(as(a)), 400, 'VALIDATION_FAILED', '/offset'],
      [http().get('/api/client/logs?limit=ten').set(as(a)), 400, 'VALIDATION_FAILED', '/limit'],
      [http().get('/api/client/logs?fromDate=yesterday').set(as(a)), 400, 'VALIDATION_FAILED', '/fromDate'],
      [
        http().get('/api/client/logs?fromDate=2026-02-02&toDate=2026-01-01').set(as(a)),
        400,
        'VALIDATION_FAILED',
        '/fromDate',
      ],
      [
        http().get('/api/client/logs?searchedName=a&searchedName=b').set(as(a)),
        400,
        'VALIDATION_FAILED',
        '/searchedName',
      ],
      [http().get('/api/client/sanction-alerts?limit=100000').set(as(a)), 400, 'VALIDATION_FAILED', '/limit'],
      [http().get('/api/sanctions/review?status=maybe').set(as(a)), 400, 'VALIDATION_FAILED', '/status'],
      [
        http()
          .post('/api/sanctions/review/not-a-uuid?action=approve')
          .set(as(a))
          .send({ reasonCode: 'name_only_coincidence' }),
        400,
        'VALIDATION_FAILED',
        '/id',
      ],
      [
        http()
          .post(`/api/sanctions/review/${uuid}?action=delete`)
          .set(as(a))
          .send({ reasonCode: 'name_only_coincidence' }),
        400,
        'VALIDATION_FAILED',
        '/action',
      ],
      [
        http().post(`/api/sanctions/review/${uuid}`).set(as(a)).send({ reasonCode: 'name_only_coincidence' }),
        400,
        'VALIDATION_FAILED',
        '/action',
      ],
      [http().get('/api/client/lists/download/not-a-uuid').set(as(a)), 400, 'VALIDATION_FAILED', '/id'],
      [http().delete('/api/client-lists/not-a-uuid').set(as(a)), 400, 'VALIDATION_FAILED', '/id'],
      [http().get('/api/client/lists/not-a-uuid/entries').set(as(a)), 400, 'VALIDATION_FAILED', '/id'],
      [http().get(`/api/client/lists/${uuid}/entries?limit=501`).set(as(a)), 400, 'VALIDATION_FAILED', '/limit'],
      [http().post('/api/client-lists/upload-csv').set(as(a)).send({ name: 'x' }), 400, 'VALIDATION_FAILED', '/file'],
      [
        http()
          .post('/api/client-lists/upload-csv')
          .set(as(a))
          .attach('file', Buffer.from('name\nAnn\n'), { filename: 'list.txt' }),
        400,
        'VALIDATION_FAILED',
        '/file',
      ],
      [
        http()
          .post('/api/client-lists/upload-csv')
          .set(as(a))
          .field('name', ' ')
          .attach('file', Buffer.from('name\nAnn\n'), { filename: 'list.csv' }),
        400,
        'VALIDATION_FAILED',
        '/name',
      ],
      [
        http()
          .post('/api/client-lists/upload-csv')
          .set(as(a))
          .attach('file', Buffer.from('email\nann@example.com\n'), { filename: 'list.csv' }),
        400,
        'VALIDATION_FAILED',
        '/file/rows/1',
      ],
      [
        http().post('/api/client-lists/upload-csv').set(as(a)).attach('file', Buffer.alloc(0), { filename: 'e.csv' }),
        400,
        'VALIDATION_FAILED',
        '/file',
      ],
      [
        http()
          .post('/api/client-lists/upload-csv')
          .set(as(a))
          .attach('file', Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x0a]), { filename: 'bin.csv' }),
        400,
        'VALIDATION_FAILED',
        '/file',
      ],
    ];
    for (const [i, [pending, status, code, pointer]] of bad.entries()) {
      const res = await pending;
      const what = `case ${i} (${pointer})`;
      expectProblem(res, status, code, what);
      if (pointer)
        expect([what, res.body.errors?.map((e: { pointer: string }) => e.pointer)]).toEqual([
          what,
          expect.arrayContaining([pointer]),
        ]);
    }

    const rowProblems = await http()
      .post('/api/client-lists/upload-csv')
      .set(as(a))
      .attach('file', Buffer.from('name,email\nAnn,ann@example.com\n,b@example.com\nCarl,not-an-email\n'), {
        filename: 'rows.csv',
      });
    expectProblem(rowProblems, 400, 'VALIDATION_FAILED');
    expect(rowProblems.body.errors).toEqual([
      { pointer: '/file/rows/3', detail: 'Row 3: name is empty.' },
      { pointer: '/file/rows/4', detail: 'Row 4: "not-an-email" is not an email address.' },
    ]);

    const tooLarge = await http()
      .post('/api/client-lists/upload-csv')
      .set(as(a))
      .attach('file', Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), { filename: 'huge.csv' });
    expectProblem(tooLarge, 413, 'PAYLOAD_TOO_LARGE');
    // Nothing refused was kept.
    expect((await http().get('/api/client/lists').set(as(a))).body.lists).toEqual([]);
    expect(await stack.sql('monitoring', 'SELECT count(*)::int AS n FROM client_list_upload_parts')).toEqual([
      { n: 0 },
    ]);
  });

  it('gives client A’s key and token 0 successes on client B’s resources, on every id-taking route', async () => {
    // B's resources: a bulk job, a review, a client list.
    const job = await http()
      .post('/api/v1/bulk-screen')
      .set('x-api-key', b.key)
      .send({ names: Array.from({ length: 1_001 }, (_, i) => `Person Number ${i}`) });
    expect(job.status).toBe(202);
    for (const name of REVIEW_CANDIDATES) {
      if ((await screen(b, name)).status === 'review') break;
    }
    const bReview: string | undefined = (await http().get('/api/sanctions/review?status=pending').set(as(b))).body
      .reviews[0]?.id;
    expect(bReview).toBeDefined();
    const list = await http()
      .post('/api/client-lists/upload-csv')
      .set(as(b))
      .attach('file', Buffer.from('name\nB Customer\n'), { filename: 'b.csv' });
    expect(list.status).toBe(201);
    // An entity outside a starter client's feeds (ofac, peps) does not exist for that client.
    const [outside] = await stack.sql(
      'screening',
      `SELECT e.source || ':' || e.source_id AS id FROM entities e JOIN sources s ON s.source = e.source
        WHERE s.feed NOT IN ('ofac', 'peps') AND e.removed_version_id IS NULL LIMIT 1`,
    );
    const starter = await member('starter', 'routes-starter@example.com');
    expect(
      (
        await http()
          .get(`/api/sanctions/entity/${encodeURIComponent(outside.id)}`)
          .set(as(a))
      ).status,
    ).toBe(200);

    const attempts: Array<[string, request.Test, number]> = [
      ['GET job', http().get(`/api/v1/jobs/${job.body.jobId}`).set('x-api-key', a.key), 404],
      ['GET job csv', http().get(`/api/v1/jobs/${job.body.jobId}?format=csv`).set('x-api-key', a.key), 404],
      [
        'approve review',
        http()
          .post(`/api/sanctions/review/${bReview}?action=approve`)
          .set(as(a))
          .send({ reasonCode: 'name_only_coincidence' }),
        404,
      ],
      [
        'block review',
        http().post(`/api/sanctions/review/${bReview}?action=block`).set(as(a)).send({ reasonCode: 'confirmed_match' }),
        404,
      ],
      ['download list', http().get(`/api/client/lists/download/${list.body.id}`).set(as(a)), 404],
      ['list entries', http().get(`/api/client/lists/${list.body.id}/entries`).set(as(a)), 404],
      ['delete list', http().delete(`/api/client-lists/${list.body.id}`).set(as(a)), 404],
      [
        // A starter client has no dashboard at all (plan limit dashboardAccess), so not this entity either.
        'entity outside the feeds',
        http()
          .get(`/api/sanctions/entity/${encodeURIComponent(outside.id)}`)
          .set(as(starter)),
        403,
      ],
      ['admin: list clients', http().get('/api/client/clients').set(as(a)), 403],
      ['admin: find by key', http().get(`/api/client/clients/api-key/${b.key}`).set(as(a)), 403],
      [
        'admin: thresholds',
        http().put(`/api/client/clients/${b.id}/thresholds`).set(as(a)).send({ threshold_config: null }),
        403,
      ],
      ['admin: regenerate key', http().post(`/api/client/clients/${b.id}/regenerate-key`).set(as(a)), 403],
      ['admin: revoke key', http().post(`/api/client/clients/${b.id}/revoke-key`).set(as(a)), 403],
      ['admin: key status', http().get(`/api/client/clients/${b.id}/api-key-status`).set(as(a)), 403],
      ['admin: delete client', http().delete(`/api/client/clients/${b.id}`).set(as(a)), 403],
      // The rest of the admin console's routes: decided by the session's role, never by the page.
      ['admin: security logs', http().get('/api/client/admin/logs').set(as(a)), 403],
      ['admin: security logs csv', http().get('/api/client/admin/logs/export').set(as(a)), 403],
      ['admin: quota monitoring', http().get('/api/client/quota-monitoring').set(as(a)), 403],
      ['admin: quota warnings check', http().post('/api/client/quota-monitoring/check-warnings').set(as(a)), 403],
      ['admin: payment failures check', http().post('/api/client/quota-monitoring/check-payments').set(as(a)), 403],
      ['admin: overview', http().get('/api/client/admin/overview').set(as(a)), 403],
      ['admin: lists', http().get('/api/client/admin/lists').set(as(a)), 403],
      ['admin: list versions', http().get('/api/client/admin/lists/ofac-sdn/versions').set(as(a)), 403],
      ['admin: refresh lists', http().post('/api/client/admin/lists/refresh').set(as(a)).send({}), 403],
      // A's key with B's session (or the reverse) is refused before any id is looked at.
      [
        'mixed credentials',
        http()
          .get(`/api/client/lists/download/${list.body.id}`)
          .set({ 'x-api-key': a.key, authorization: `Bearer ${b.token}` }),
        403,
      ],
    ];
    const answers: Array<[string, number]> = [];
    for (const [what, pending] of attempts) answers.push([what, (await pending).status]);
    expect(answers.filter(([, status]) => status < 400)).toEqual([]);
    expect(answers).toEqual(attempts.map(([what, , status]) => [what, status]));

    // B's resources are untouched and still work for B.
    expect((await http().get(`/api/v1/jobs/${job.body.jobId}`).set('x-api-key', b.key)).status).toBe(200);
    const bReviews = (await http().get('/api/sanctions/review').set(as(b))).body.reviews;
    expect(bReviews.find((r: { id: string }) => r.id === bReview)).toMatchObject({ status: 'pending' });
    expect((await http().get(`/api/client/lists/download/${list.body.id}`).set(as(b))).text).toBe(
      'name,email,aliases\r\nB Customer,,\r\n',
    );
    expect((await http().get(`/api/client/clients/${b.id}/api-key-status`).set(as(a))).status).toBe(403);
    expect((await http().get('/api/v1/status').set('x-api-key', b.key)).status).toBe(200);
  });

  it('serves the list catalogue anonymously at /api/lists; /api/v1/lists takes the API key', async () => {
    const anonymous = await http().get('/api/lists');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.lists.length).toBeGreaterThan(0);
    expect(anonymous.body.lists[0]).toHaveProperty('entityCount');
    // Public: names, versions and checksums, never where the server keeps its files (issue #15).
    for (const list of anonymous.body.lists) {
      expect(Object.keys(list).sort()).toEqual(
        ['checksum', 'entityCount', 'feed', 'lastUpdated', 'name', 'source', 'status', 'version'].sort(),
      );
    }
    expect(JSON.stringify(anonymous.body)).not.toMatch(/sample-lists|\/services\/|\.(csv|xml|json)\b/);
    expectProblem(await http().get('/api/v1/lists'), 401, 'INVALID_API_KEY');
    const keyed = await http().get('/api/v1/lists').set('x-api-key', a.key);
    expect(keyed.status).toBe(200);
    expect(keyed.body.lists.map((l: { source: string }) => l.source)).toEqual(
      anonymous.body.lists.map((l: { source: string }) => l.source),
    );
  });
  it('takes the session alone for the client’s own dashboard routes; the key is for integrations', async () => {
    const c = await member('large', 'routes-session@example.com');
    const session = { authorization: `Bearer ${c.token}` };
    const screened = await http().post('/api/screen').set(session).send({ name: BLOCKED_NAME });
    expect(screened.status).toBe(200);
    expect(screened.body.blocked).toBe(true);
    const logs = await http().get('/api/client/logs').set(session);
    expect(
      logs.body.logs.map((l: { client_id: string; searched_name: string }) => [l.client_id, l.searched_name]),
    ).toEqual([[c.id, BLOCKED_NAME]]);
    const status = await http().get('/api/status').set(session);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ tier: 'large', usage: 1 });
    // The public API still wants the key, and a key of another client is still refused with a session.
    expectProblem(await http().post('/api/v1/screen').set(session).send({ name: CLEAR_NAME }), 401, 'INVALID_API_KEY');
    expectProblem(
      await http()
        .get('/api/status')
        .set({ ...session, 'x-api-key': a.key }),
      403,
      'FORBIDDEN',
    );
    // Without any session, a dashboard route is refused even with a valid key.
    expectProblem(await http().get('/api/status').set('x-api-key', c.key), 401, 'UNAUTHENTICATED');
  });

  it('runs more than 1,000 names as a background job the session can follow and export', async () => {
    const names = Array.from({ length: 1_001 }, (_, i) => `Session Bulk Name ${i}`);
    const started = await http().post('/api/sanctions/bulk-search').set(as(a)).send({ names });
    expect(started.status).toBe(202);
    expect(started.body.statusUrl).toBe(`/api/sanctions/bulk-jobs/${started.body.jobId}`);
    const session = { authorization: `Bearer ${a.token}` };
    let job: request.Response;
    const deadline = Date.now() + 60_000;
    do {
      job = await http().get(started.body.statusUrl).set(session);
      expect(job.status).toBe(200);
      if (job.body.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 500));
    } while (Date.now() < deadline);
    expect(job.body).toMatchObject({ status: 'completed', total: 1_001, processed: 1_001, progress: 1 });
    // The job's rows are logged as run by the job and name who submitted it (issue #33), not whoever reads them.
    const row = await http().get('/api/client/logs').query({ searchedName: 'Session Bulk Name 1000' }).set(session);
    expect(row.body.logs).toEqual([
      expect.objectContaining({
        kind: 'bulk',
        screened_by: { kind: 'bulk_job', jobId: started.body.jobId, submittedBy: 'routes-a@example.com' },
      }),
    ]);
    const csv = await http().get(started.body.statusUrl).query({ format: 'csv' }).set(session);
    expect(csv.headers['content-disposition']).toMatch(/bulk-screening-results-.*\.csv/);
    expect(csv.text.trim().split('\n')).toHaveLength(1_002);
    const json = await http().get(started.body.statusUrl).query({ format: 'json-file' }).set(session).buffer(true);
    expect(JSON.parse(json.text ?? json.body.toString())).toHaveLength(1_001);
    expectProblem(
      await http()
        .get(started.body.statusUrl)
        .set({ authorization: `Bearer ${b.token}` }),
      404,
      'NOT_FOUND',
    );
  });
  it('charts 30 days of the client’s screenings and writes the Downloads & Reports files on the server', async () => {
    const c = await member('large', 'routes-reports@example.com');
    const session = { authorization: `Bearer ${c.token}` };
    await http().post('/api/screen').set(session).send({ name: BLOCKED_NAME });
    await http().post('/api/screen').set(session).send({ name: CLEAR_NAME });

    const history = await http().get('/api/client/usage-history').set(session);
    expect(history.status).toBe(200);
    expect(history.body.days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(history.body.days.at(-1)).toEqual({ date: today, screenings: 2, matches: 1, blocked: 1 });
    expect(history.body.days[0].screenings).toBe(0);
    expect(history.body).toMatchObject({ quota: expect.any(Number), usage: 2 });

    const logs = await http().get('/api/client/reports/screening-logs').set(session).buffer(true);
    expect(logs.status).toBe(200);
    expect(logs.headers['content-disposition']).toBe(`attachment; filename="screening-logs-${today}.json"`);
    expect(
      JSON.parse(logs.text)
        .map((l: { searched_name: string }) => l.searched_name)
        .sort(),
    ).toEqual([BLOCKED_NAME, CLEAR_NAME].sort());
    const csv = await http().get('/api/client/reports/sanctions-export').set(session).buffer(true);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="sanctions-export-${today}.csv"`);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'ID,Searched Name,Match Found,Sanctioned Entity ID,Source List,Score,Tier,Is Alert,Created At,Screened By',
    );
    expect(lines).toHaveLength(3);
    const alerts = await http().get('/api/client/reports/sanction-alerts').set(session).buffer(true);
    expect(JSON.parse(alerts.text)).toHaveLength(1);
    const data = await http().get('/api/client/reports/sanctions-data').set(session).buffer(true);
    expect(JSON.parse(data.text).lists.length).toBeGreaterThan(0);

    const source = JSON.parse(data.text).lists[0].source as string;
    const list = await http().get(`/api/client/reports/list/${source}`).set(session).buffer(true);
    expect(list.status).toBe(200);
    expect(list.text.split('\n').length).toBeGreaterThan(1);

    expectProblem(await http().get('/api/client/reports/everything').set(session), 400, 'VALIDATION_FAILED');
    expectProblem(await http().get('/api/client/usage-history'), 401, 'UNAUTHENTICATED');
    // Another client's session sees only its own rows.
    const theirs = await http()
      .get('/api/client/reports/screening-logs')
      .set({ authorization: `Bearer ${b.token}` })
      .buffer(true);
    expect(JSON.parse(theirs.text).every((l: { client_id: string }) => l.client_id === b.id)).toBe(true);
  });
});
