import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { ApiStack } from './api-stack.js';

jest.setTimeout(180_000);

// Issue #33: a screening names who ran it. The gateway names the member of a session or the API
// key that alone authenticated the request (its id and prefix, never the key nor its hash), from
// what its guard verified; nothing in the request body can name anyone.

const PASSWORD = 'screened-by-passphrase';
const CLEAR_NAME = 'Zebedee Quortlebank';

type Actor = { kind: string; userId?: string; email?: string; keyId?: string; keyPrefix?: string } | null;
type Log = { searched_name: string; kind: 'single' | 'bulk'; screened_by: Actor };

describe('screened by: every screening log names the member or the key that ran it', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  let m: { id: string; key: string; token: string };
  let userId: string;
  const email = 'screened-by@example.com';
  const session = () => ({ authorization: `Bearer ${m.token}` });

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway();
    m = await stack.member(app, 'large', email, PASSWORD);
    userId = (JSON.parse(Buffer.from(m.token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
  });

  afterAll(() => stack.stop());

  const logsOf = async (): Promise<Map<string, Log>> => {
    const res = await http().get('/api/client/logs').set(session());
    expect(res.status).toBe(200);
    // Neither the key nor its hash, anywhere in what the dashboard reads.
    expect(res.text).not.toContain(m.key);
    expect(res.text).not.toContain(createHash('sha256').update(m.key).digest('hex'));
    return new Map((res.body.logs as Log[]).map((l) => [l.searched_name, l]));
  };

  it('names the signed-in member for the dashboard and the key (id and prefix) for the API', async () => {
    expect((await http().post('/api/screen').set(session()).send({ name: CLEAR_NAME })).status).toBe(200);
    expect(
      (await http().post('/api/v1/screen').set('x-api-key', m.key).send({ name: 'Key Screened Name' })).status,
    ).toBe(200);
    const bulkByKey = await http()
      .post('/api/v1/bulk-screen')
      .set('x-api-key', m.key)
      .send({ names: ['Key Bulk One', 'Key Bulk Two'] });
    expect(bulkByKey.status).toBe(200);
    const bulkBySession = await http()
      .post('/api/sanctions/bulk-search')
      .set(session())
      .send({ names: ['Session Bulk One'] });
    expect(bulkBySession.status).toBe(200);

    const logs = await logsOf();
    const member = { kind: 'user', userId, email };
    expect(logs.get(CLEAR_NAME)).toMatchObject({ kind: 'single', screened_by: member });
    expect(logs.get('Session Bulk One')).toMatchObject({ kind: 'bulk', screened_by: member });
    const key = logs.get('Key Screened Name')!.screened_by!;
    expect(key).toEqual({ kind: 'api_key', keyId: expect.any(String), keyPrefix: expect.any(String) });
    expect(m.key.startsWith(key.keyPrefix!)).toBe(true);
    expect(key.keyPrefix!.length).toBeLessThan(m.key.length);
    for (const name of ['Key Bulk One', 'Key Bulk Two'])
      expect(logs.get(name)).toMatchObject({ kind: 'bulk', screened_by: key });
  });

  it('takes no actor from the request body', async () => {
    const forged = { kind: 'user', userId: 'someone-else', email: 'ceo@example.com' };
    for (const [route, headers, body] of [
      ['/api/v1/screen', { 'x-api-key': m.key }, { name: 'Forged Actor', actor: forged }],
      ['/api/screen', session(), { name: 'Forged Actor', actor: forged }],
      ['/api/v1/bulk-screen', { 'x-api-key': m.key }, { names: ['Forged Actor'], actor: forged }],
    ] as const) {
      const res = await http().post(route).set(headers).send(body);
      expect([route, res.status, res.body.code]).toEqual([route, 400, 'VALIDATION_FAILED']);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/actor' })]);
    }
    expect((await logsOf()).has('Forged Actor')).toBe(false);
  });

  it('writes who screened into the CSV and JSON downloads', async () => {
    const csv = await http().get('/api/client/reports/sanctions-export').set(session());
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]!.split(',').at(-1)).toBe('Screened By');
    expect(lines.find((l) => l.includes(CLEAR_NAME))).toMatch(new RegExp(`,${email}$`));
    expect(lines.find((l) => l.includes('Key Screened Name'))).toMatch(/,API key \S+…$/);
    expect(csv.text).not.toContain(m.key);

    const json = await http().get('/api/client/reports/screening-logs').set(session()).buffer(true);
    expect(json.status).toBe(200);
    const rows = JSON.parse(json.text ?? String(json.body)) as Log[];
    expect(rows.find((r) => r.searched_name === CLEAR_NAME)!.screened_by).toMatchObject({ kind: 'user', email });
    expect(json.text).not.toContain(m.key);
  });

  it('filters logs and alerts on the server: any case, no accents, status, who ran it, dates', async () => {
    const accented = 'Zoë Müller-Núñez';
    expect((await http().post('/api/screen').set(session()).send({ name: accented })).status).toBe(200);
    const blocked = await http().post('/api/v1/screen').set('x-api-key', m.key).send({ name: 'Kim Jong Un' });
    expect(blocked.body.status).toBe('blocked');
    const keyActor = (await logsOf()).get('Kim Jong Un')!.screened_by!;

    const logs = async (query: Record<string, string>) => {
      const res = await http().get('/api/client/logs').query(query).set(session());
      expect([query, res.status]).toEqual([query, 200]);
      return res.body as { logs: Log[]; total: number; counts: Record<string, number> };
    };
    const names = async (query: Record<string, string>) => (await logs(query)).logs.map((l) => l.searched_name);
    expect(await names({ searchedName: 'zoe muller-nunez' })).toEqual([accented]);
    expect(await names({ searchedName: 'MÜLLER' })).toEqual([accented]);
    expect(await names({ status: 'blocked' })).toEqual(['Kim Jong Un']);
    const byKey = await logs({ screenedBy: 'api_key' });
    expect(byKey.logs.every((l) => l.screened_by?.kind === 'api_key')).toBe(true);
    expect(byKey.logs.map((l) => l.searched_name).sort()).toEqual(
      ['Key Screened Name', 'Key Bulk One', 'Key Bulk Two', 'Kim Jong Un'].sort(),
    );
    // The tabs count under the who filter too: all four of the key's, one of them an alert.
    expect(byKey.counts).toMatchObject({ all: 4, alerts: 1 });
    expect(await names({ screenedBy: `api_key:${keyActor.keyId!}`, status: 'blocked' })).toEqual(['Kim Jong Un']);
    expect((await names({ screenedBy: `user:${userId}` })).sort()).toEqual(
      [CLEAR_NAME, 'Session Bulk One', accented].sort(),
    );
    expect(await names({ screenedBy: 'monitoring' })).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await logs({ fromDate: today, screenedBy: 'user' })).total).toBe(3);
    expect((await logs({ toDate: yesterday })).total).toBe(0);

    const alerts = async (query: Record<string, string>) => {
      const res = await http().get('/api/client/sanction-alerts').query(query).set(session());
      expect([query, res.status]).toEqual([query, 200]);
      return res.body as { alerts: Array<{ full_name: string; screened_by: Actor }>; total: number; all: number };
    };
    expect(await alerts({ searchedName: 'kim jong' })).toMatchObject({
      total: 1,
      all: 1,
      alerts: [{ full_name: 'Kim Jong Un', screened_by: keyActor }],
    });
    expect(await alerts({ screenedBy: `user:${userId}` })).toMatchObject({ total: 0, all: 1, alerts: [] });
    expect((await alerts({ screenedBy: `api_key:${keyActor.keyId!}` })).total).toBe(1);
    expect((await alerts({ reviewed: 'true' })).total).toBe(0);
    expect((await alerts({ fromDate: today, toDate: today, confidence: 'Exact Match' })).total).toBeLessThanOrEqual(1);
    expect((await alerts({ toDate: yesterday })).total).toBe(0);

    for (const [route, query] of [
      ['/api/client/logs', { screenedBy: 'admin' }],
      ['/api/client/logs', { status: 'maybe' }],
      ['/api/client/sanction-alerts', { screenedBy: 'user:a b' }],
      ['/api/client/sanction-alerts', { fromDate: today, toDate: yesterday }],
    ] as const) {
      const res = await http().get(route).query(query).set(session());
      expect([route, query, res.status, res.body.code]).toEqual([route, query, 400, 'VALIDATION_FAILED']);
    }
  });
});
