import { jest } from '@jest/globals';
import { REVIEW_BAND_NAMES } from '@vigil/platform/testing';
import { createHash } from 'node:crypto';
import { AuditStack, eventually } from './harness.js';

jest.setTimeout(240_000);

// With the sample lists and default thresholds (blocked ≥ 0.85, review ≥ 0.6); the test checks the band.
const BLOCKED_NAME = 'Kim Jong Un';
const CLEAR_NAME = 'Zebedee Quortlebank';
const REVIEW_CANDIDATES = REVIEW_BAND_NAMES;

type Member = Awaited<ReturnType<AuditStack['member']>>;
type Evidence = {
  clientId: string;
  chain: string;
  records: Array<{
    kind: string;
    seq: number;
    searchedName: string | null;
    status: string | null;
    decision: string | null;
    actorId: string | null;
    listVersions: Array<{ source: string; versionId: number }> | null;
    prevHash: string;
    hash: string;
    canonical: string;
  }>;
};

describe("a client's screening evidence: every screening, list versions, decisions and chain hashes, its own only", () => {
  const stack = new AuditStack();
  let a: Member;
  let b: Member;
  const as = (m: Member) => ({ 'x-api-key': m.key, authorization: `Bearer ${m.token}` });
  const evidence = (m: Member, query = '') =>
    stack.http('GET', `/api/client/audit/screenings${query}`, { headers: as(m) });

  async function screen(m: Member, name: string) {
    const res = await stack.http('POST', '/api/screen', { headers: as(m), body: { name } });
    expect(res.status).toBe(200);
    return res.body as { status: 'blocked' | 'review' | 'clear' };
  }

  beforeAll(async () => {
    await stack.start({ screening: true });
    a = await stack.member('large', `evidence-a-${Date.now()}@example.com`, 'Evidence Bank A');
    b = await stack.member('large', `evidence-b-${Date.now()}@example.com`, 'Evidence Bank B');
  });
  afterAll(() => stack.stop());

  it('exports the client’s screenings and its review decision, chained, and never another client’s', async () => {
    expect((await screen(a, CLEAR_NAME)).status).toBe('clear');
    expect((await screen(a, BLOCKED_NAME)).status).toBe('blocked');
    let reviewName: string | undefined;
    for (const name of REVIEW_CANDIDATES) {
      if ((await screen(a, name)).status === 'review') {
        reviewName = name;
        break;
      }
    }
    expect(reviewName).toBeDefined();
    await screen(b, 'Someone Only B Screened');
    const pending = await stack.http('GET', '/api/sanctions/review?status=pending', { headers: as(a) });
    const review = pending.body.reviews.find((r: { searched_input: string }) => r.searched_input === reviewName);
    const decided = await stack.http('POST', `/api/sanctions/review/${review.id}?action=approve`, {
      headers: as(a),
      body: { reasonCode: 'other', note: 'Known customer.' },
    });
    expect(decided.status).toBe(200);

    const screenedByA = 2 + REVIEW_CANDIDATES.indexOf(reviewName!) + 1;
    const { value } = await eventually(
      () => evidence(a),
      (r) => r.status === 200 && r.body.records.length === screenedByA + 1,
      15_000,
    );
    expect(value.headers.get('content-type')).toMatch(/^application\/json/);
    const body = value.body as Evidence;
    expect(body).toMatchObject({ clientId: a.id, chain: `client:${a.id}` });
    const screenings = body.records.filter((r) => r.kind === 'screening');
    expect(screenings.map((r) => r.searchedName)).toEqual(
      expect.arrayContaining([CLEAR_NAME, BLOCKED_NAME, reviewName]),
    );
    expect(screenings.find((r) => r.searchedName === BLOCKED_NAME)!.status).toBe('blocked');
    // Each names who ran it: the signed-in member (issue #33), not just the client.
    for (const s of screenings) expect(s.actorId).toBe(a.userId);
    for (const s of screenings) {
      expect(s.listVersions!.length).toBeGreaterThan(0);
      expect(s.listVersions![0]).toEqual({ source: expect.any(String), versionId: expect.any(Number) });
    }
    const decision = body.records.find((r) => r.kind === 'review_decision')!;
    expect(decision).toMatchObject({ decision: 'approved', actorId: a.userId });
    // The chain holds: each record's hash is sha256(prevHash ‖ canonical), and links to the one before.
    body.records.forEach((r, i) => {
      expect(createHash('sha256').update(r.prevHash).update(r.canonical).digest('hex')).toBe(r.hash);
      expect(r.seq).toBe(i + 1);
      expect(r.prevHash).toBe(i === 0 ? '0'.repeat(64) : body.records[i - 1]!.hash);
    });
    // Nothing of B's.
    expect(value.text).not.toContain('Someone Only B Screened');
    expect(value.text).not.toContain(b.id);

    const { value: ofB } = await eventually(
      () => evidence(b),
      (r) => r.status === 200 && r.body.records.length === 1,
      10_000,
    );
    expect(ofB.body.records[0].searchedName).toBe('Someone Only B Screened');
    for (const name of [CLEAR_NAME, BLOCKED_NAME, reviewName!]) expect(ofB.text).not.toContain(name);
    expect(ofB.text).not.toContain(a.id);
    // B's own key with A's session, or A's key with B's session: refused, not A's evidence.
    const crossed = await stack.http('GET', '/api/client/audit/screenings', {
      headers: { 'x-api-key': b.key, authorization: `Bearer ${a.token}` },
    });
    expect(crossed.status).toBe(403);
  });

  it('exports CSV with list versions, decisions and hashes, and honours from/to', async () => {
    const csv = await evidence(a, '?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="screening-evidence-.*\.csv"/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'kind,chain,seq,occurred_at,actor_id,screening_id,searched_name,searched_email,status,score,matched_name,source_list,list_versions,decision,action,details,prev_hash,hash',
    );
    expect(
      lines.some((l) => l.startsWith('screening,') && l.includes(BLOCKED_NAME) && /[a-z][a-z_-]*:\d+/.test(l)),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('review_decision,') && l.includes(',approved,'))).toBe(true);
    expect(csv.text).not.toContain('Someone Only B Screened');

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    expect((await evidence(a, `?to=${yesterday}`)).body.records).toEqual([]);
    const all = (await evidence(a)).body.records.length;
    expect((await evidence(a, `?from=${today}&to=${today}`)).body.records).toHaveLength(all);
    for (const bad of ['?from=yesterday', '?format=xml', '?to=2026-13-01']) {
      const res = await evidence(a, bad);
      expect([bad, res.status, res.body?.code]).toEqual([bad, 400, 'VALIDATION_FAILED']);
    }
    expect((await stack.http('GET', '/api/client/audit/screenings')).status).toBe(401);
  });

  it('opens with the API key alone (a server, no session), its own client’s chain only', async () => {
    await screen(b, 'Someone Only B Screened By Key');
    const { value: withSession } = await eventually(
      () => evidence(b),
      (r) => r.status === 200 && r.text.includes('Someone Only B Screened By Key'),
      15_000,
    );
    const alone = await stack.http('GET', '/api/client/audit/screenings', { headers: { 'x-api-key': b.key } });
    expect(alone.status).toBe(200);
    const records = (alone.body as Evidence).records;
    expect((alone.body as Evidence).clientId).toBe(b.id);
    expect(records.map((r) => r.hash)).toEqual((withSession.body as Evidence).records.map((r) => r.hash));
    expect(records.map((r) => r.searchedName)).toContain('Someone Only B Screened By Key');
    expect(alone.text).not.toContain(a.id);
    const csv = await stack.http('GET', '/api/client/audit/screenings?format=csv', { headers: { 'x-api-key': b.key } });
    expect([csv.status, csv.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/csv/)]);
    const unknown = await stack.http('GET', '/api/client/audit/screenings', {
      headers: { 'x-api-key': 'f'.repeat(64) },
    });
    expect([unknown.status, unknown.body.code]).toEqual([401, 'INVALID_API_KEY']);
  });
});
