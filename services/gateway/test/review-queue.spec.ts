import { jest } from '@jest/globals';
import { REVIEW_BAND_NAMES } from '@vigil/platform/testing';
import type { INestApplication } from '@nestjs/common';
import type { MemberRole } from '@vigil/proto';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { eventually, mailTextTo } from './stack.js';

jest.setTimeout(180_000);

const PASSWORD = 'review-queue-passphrase';
// Names whose top match falls in the review band with the sample lists (checked before use).
const REVIEW_CANDIDATES = REVIEW_BAND_NAMES;

type Member = { id: string; key?: string; token: string; email: string };

describe('review queue at the HTTP edge: reasons, members, four-eyes, remembered false positives, one client at a time', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const as = (m: Member) => ({ authorization: `Bearer ${m.token}` });
  let a: Member;
  let b: Member;
  let reviewName: string;

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway();
    a = { ...(await stack.member(app, 'large', 'queue-a@example.com', PASSWORD)), email: 'queue-a@example.com' };
    b = { ...(await stack.member(app, 'large', 'queue-b@example.com', PASSWORD)), email: 'queue-b@example.com' };
    for (const name of REVIEW_CANDIDATES) {
      if ((await screen(a, { name })).status === 'review') {
        reviewName = name;
        break;
      }
    }
    expect(reviewName).toBeDefined();
  });
  afterAll(() => stack.stop());

  /** A colleague the owner invites with `role`, signed up through the mailed link. */
  async function teammate(owner: Member, email: string, role: MemberRole): Promise<Member> {
    const invited = await http().post('/api/team/invitations').set(as(owner)).send({ email, member_role: role });
    expect(invited.status).toBe(201);
    const { value: mail } = await eventually(
      () => mailTextTo(stack.schema('auth'), email),
      (t) => t !== undefined,
      10_000,
    );
    const token = /invitation\?token=([A-Za-z0-9_-]+)/.exec(mail!)![1];
    const joined = await http()
      .post('/auth/v1/team-invitations/signup')
      .send({ token, full_name: role, password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true });
    expect([joined.status, joined.body.user?.member_role]).toEqual([200, role]);
    return { id: owner.id, token: joined.body.access_token, email };
  }

  async function screen(m: Member, entity: Record<string, string>) {
    const res = await http().post('/api/screen').set(as(m)).send(entity);
    expect(res.status).toBe(200);
    return res.body as {
      status: 'blocked' | 'review' | 'clear';
      topScore: number;
      results: Array<{ id: string; status: string; score: number; suppressedBy?: string }>;
    };
  }

  /** Screens the review name and returns the new review's id. */
  async function newReview(m: Member, entity: Record<string, string> = { name: reviewName }) {
    expect((await screen(m, entity)).status).toBe('review');
    const list = await http().get('/api/sanctions/review?status=pending').set(as(m));
    return list.body.reviews[0].id as string;
  }

  function expectProblem(res: request.Response, status: number, code: string, pointer?: string) {
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    if (pointer) expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ pointer })]));
  }

  it('refuses a decision without a reason (problem+json), and stores the decision with the member who made it', async () => {
    const id = await newReview(a);
    const url = `/api/sanctions/review/${id}?action=approve`;
    expectProblem(await http().post(url).set(as(a)), 400, 'VALIDATION_FAILED', '/reasonCode');
    expectProblem(
      await http().post(url).set(as(a)).send({ reasonCode: 'confirmed_match' }),
      400,
      'VALIDATION_FAILED',
      '/reasonCode',
    );
    expectProblem(await http().post(url).set(as(a)).send({ reasonCode: 'other' }), 400, 'VALIDATION_FAILED', '/note');

    const decided = await http().post(url).set(as(a)).send({ reasonCode: 'other', note: 'Known customer since 2009.' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ outcome: 'decided', review: { status: 'approved' } });
    const stored = (await http().get('/api/sanctions/review?status=approved').set(as(a))).body.reviews.find(
      (r: { id: string }) => r.id === id,
    );
    expect(stored).toMatchObject({
      decided_by_email: a.email,
      reason_code: 'other',
      note: 'Known customer since 2009.',
      decided_at: expect.any(String),
    });
    expectProblem(
      await http().post(`/api/sanctions/review/${id}?action=block`).set(as(a)).send({ reasonCode: 'confirmed_match' }),
      409,
      'CONFLICT',
    );
  });

  it('four-eyes with real members: viewers cannot decide, analysts propose but cannot confirm, nobody confirms their own proposal', async () => {
    const viewer = await teammate(a, 'queue-a-viewer@example.com', 'viewer');
    const analyst = await teammate(a, 'queue-a-analyst@example.com', 'analyst');
    const supervisor = await teammate(a, 'queue-a-supervisor@example.com', 'supervisor');

    const first = await newReview(a);
    const decide = (m: Member, id: string, action = 'approve', reasonCode = 'name_only_coincidence') =>
      http().post(`/api/sanctions/review/${id}?action=${action}`).set(as(m)).send({ reasonCode });
    expectProblem(await decide(viewer, first), 403, 'ROLE_FORBIDDEN');
    expect((await http().get('/api/sanctions/review').set(as(viewer))).status).toBe(200);

    expectProblem(
      await http().put('/api/sanctions/review-settings').set(as(analyst)).send({ fourEyes: true }),
      403,
      'ROLE_FORBIDDEN',
    );
    const on = await http().put('/api/sanctions/review-settings').set(as(supervisor)).send({ fourEyes: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ fourEyes: true, updated_by_email: supervisor.email });
    expect((await http().get('/api/sanctions/review-settings').set(as(viewer))).body.fourEyes).toBe(true);
    expect((await http().get('/api/sanctions/review-settings').set(as(b))).body.fourEyes).toBe(false);

    const proposed = await decide(analyst, first);
    expect(proposed.status).toBe(200);
    expect(proposed.body).toMatchObject({
      outcome: 'proposed',
      review: { status: 'proposed', proposed_by_email: analyst.email },
    });
    const queue = await http().get('/api/sanctions/review?status=proposed').set(as(a));
    expect(queue.body.reviews.map((r: { id: string }) => r.id)).toEqual([first]);
    expect(queue.body.counts.proposed).toBe(1);

    expectProblem(await http().post(`/api/sanctions/review/${first}/confirm`).set(as(analyst)), 403, 'ROLE_FORBIDDEN');
    expectProblem(await http().post(`/api/sanctions/review/${first}/confirm`).set(as(b)), 404, 'NOT_FOUND');
    const confirmed = await http().post(`/api/sanctions/review/${first}/confirm`).set(as(supervisor));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.review).toMatchObject({
      status: 'approved',
      reason_code: 'name_only_coincidence',
      proposed_by_email: analyst.email,
      decided_by_email: supervisor.email,
    });

    const second = await newReview(a, { name: reviewName, customerReference: 'second' });
    expect((await decide(supervisor, second, 'block', 'confirmed_match')).body.outcome).toBe('proposed');
    expectProblem(
      await http().post(`/api/sanctions/review/${second}/confirm`).set(as(supervisor)),
      403,
      'FOUR_EYES_SELF_CONFIRM',
    );
    const byOwner = await http().post(`/api/sanctions/review/${second}/confirm`).set(as(a));
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.review).toMatchObject({
      status: 'blocked',
      decided_by_email: a.email,
      proposed_by_email: supervisor.email,
    });
    await http().put('/api/sanctions/review-settings').set(as(a)).send({ fourEyes: false });
  });

  it('remembers a false positive for the client that decided it, shows the case, and keeps all of it from another client', async () => {
    const query = { name: reviewName, customerReference: 'CUST-7' };
    const id = await newReview(b, query);

    const kase = await http().get(`/api/sanctions/review/${id}`).set(as(b));
    expect(kase.status).toBe(200);
    expect(kase.body.searched).toMatchObject({ name: reviewName, dateOfBirth: null, customerReference: 'CUST-7' });
    expect(kase.body.entry).toMatchObject({
      entityId: expect.any(String),
      names: expect.any(Array),
      listVersion: expect.any(Object),
    });
    expect(kase.body.explanation.tokens.length).toBeGreaterThan(0);
    expectProblem(await http().get(`/api/sanctions/review/${id}`).set(as(a)), 404, 'NOT_FOUND');

    const approved = await http()
      .post(`/api/sanctions/review/${id}?action=approve`)
      .set(as(b))
      .send({ reasonCode: 'name_only_coincidence' });
    expect(approved.body.rememberedId).toEqual(expect.any(String));
    const before = (await http().get('/api/sanctions/review').set(as(b))).body.counts.all;
    const again = await screen(b, query);
    expect(again.status).toBe('clear');
    expect(again.results[0]).toMatchObject({ status: 'clear', suppressedBy: id });
    expect((await http().get('/api/sanctions/review').set(as(b))).body.counts.all).toBe(before);
    // Client A sending the very same query is not covered by B's memory.
    expect((await screen(a, query)).status).toBe('review');

    const remembered = await http().get('/api/sanctions/remembered').set(as(b));
    expect(remembered.body.remembered).toEqual([
      expect.objectContaining({ id: approved.body.rememberedId, review_id: id }),
    ]);
    // A has memories of its own (from the four-eyes test), none of B's.
    const ofA = (await http().get('/api/sanctions/remembered').set(as(a))).body.remembered.map(
      (r: { id: string }) => r.id,
    );
    expect(ofA).not.toContain(approved.body.rememberedId);
    expectProblem(
      await http().delete(`/api/sanctions/remembered/${approved.body.rememberedId}`).set(as(a)),
      404,
      'NOT_FOUND',
    );
    expect((await screen(b, query)).status).toBe('clear');

    // A proposal of B's is invisible and unchangeable for A.
    await http().put('/api/sanctions/review-settings').set(as(b)).send({ fourEyes: true });
    const proposalId = await newReview(b, { name: reviewName, customerReference: 'CUST-8' });
    await http()
      .post(`/api/sanctions/review/${proposalId}?action=block`)
      .set(as(b))
      .send({ reasonCode: 'confirmed_match' });
    expect((await http().get('/api/sanctions/review?status=proposed').set(as(a))).body.reviews).toEqual([]);
    expectProblem(await http().post(`/api/sanctions/review/${proposalId}/confirm`).set(as(a)), 404, 'NOT_FOUND');
    expectProblem(
      await http().post(`/api/sanctions/review/${proposalId}/return`).set(as(a)).send({}),
      404,
      'NOT_FOUND',
    );

    const revoked = await http().delete(`/api/sanctions/remembered/${approved.body.rememberedId}`).set(as(b));
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toMatchObject({ id: approved.body.rememberedId, revoked_by_email: b.email });
    expect((await screen(b, query)).status).toBe('review');
  });
});
