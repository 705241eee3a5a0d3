// Issue #19, a team per client: an owner invites colleagues with a role through a single-use link
// by mail; members share the client's data; each route checks the role; a removed member is out
// within seconds. Real auth, screening and NATS; the gateway in-process.
import { jest } from '@jest/globals';
import { REVIEW_BAND_NAMES } from '@vigil/platform/testing';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { ApiStack } from './api-stack.js';
import { eventually, mailTextTo } from './stack.js';

jest.setTimeout(180_000);

const PASSWORD = 'team-routes-passphrase';
const REVIEW_CANDIDATES = REVIEW_BAND_NAMES;

type Session = {
  access_token: string;
  refresh_token: string;
  user: { id: string; client_id: string | null; member_role: string | null };
};

describe('a team per client: invitations, roles and removal', () => {
  const stack = new ApiStack();
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  let owner: { id: string; key: string; token: string };
  let other: { id: string; key: string; token: string };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  function expectProblem(res: request.Response, status: number, code: string) {
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  }

  /** The newest invitation mail to `email`, and the token of its link. */
  async function invitationLink(email: string) {
    const { value } = await eventually(
      () => mailTextTo(stack.schema('auth'), email),
      (text) => text?.includes('/invitation?token=') === true,
      10_000,
    );
    const link = /(http\S+\/invitation\?token=([A-Za-z0-9_-]+))/.exec(value!)!;
    return { text: value!, link: link[1]!, token: link[2]! };
  }

  async function invite(by: string, email: string, role: string) {
    const res = await http().post('/api/team/invitations').set(bearer(by)).send({ email, member_role: role });
    expect(res.status).toBe(201);
    return res.body as { id: string; email: string; member_role: string };
  }

  /** Invites `email` with `role` and signs them up through the link: their session. */
  async function join(email: string, role: string): Promise<Session> {
    await invite(owner.token, email, role);
    const { token } = await invitationLink(email);
    const res = await http()
      .post('/auth/v1/team-invitations/signup')
      .send({ token, full_name: 'Colleague', password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true });
    expect(res.status).toBe(200);
    return res.body as Session;
  }

  beforeAll(async () => {
    await stack.start(['auth', 'screening']);
    app = await stack.gateway();
    owner = await stack.member(app, 'large', 'team-owner@example.com', PASSWORD);
    other = await stack.member(app, 'large', 'other-owner@example.com', PASSWORD);
  });

  afterAll(() => stack.stop());

  it('invites an analyst who signs up through the link, joins the client with that role and shares its reviews', async () => {
    const invitation = await invite(owner.token, 'Analyst.One@Example.com', 'analyst');
    expect(invitation).toMatchObject({ email: 'analyst.one@example.com', member_role: 'analyst' });
    const mail = await invitationLink('analyst.one@example.com');
    expect(mail.text).toContain('team-owner@example.com invited you to join');
    expect(mail.link).toMatch(/^http:\/\/web\.test\/invitation\?token=/);

    const preview = await http().post('/auth/v1/team-invitations/look-up').send({ token: mail.token });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      email: 'analyst.one@example.com',
      member_role: 'analyst',
      has_account: false,
    });

    const signedUp = await http().post('/auth/v1/team-invitations/signup').send({
      token: mail.token,
      full_name: 'Ana Lyst',
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
    });
    expect(signedUp.status).toBe(200);
    const analyst = signedUp.body as Session;
    expect(analyst.user).toMatchObject({ client_id: owner.id, member_role: 'analyst' });

    // Single use: the link is spent.
    expectProblem(
      await http().post('/auth/v1/team-invitations/look-up').send({ token: mail.token }),
      400,
      'INVALID_LINK',
    );

    // The owner screens; the analyst sees the client's review queue and decides.
    let reviewName: string | undefined;
    for (const name of REVIEW_CANDIDATES) {
      const screened = await http().post('/api/screen').set(bearer(owner.token)).send({ name });
      expect(screened.status).toBe(200);
      if (screened.body.status === 'review') {
        reviewName = name;
        break;
      }
    }
    expect(reviewName).toBeDefined();
    const queue = await http().get('/api/sanctions/review?status=pending').set(bearer(analyst.access_token));
    expect(queue.status).toBe(200);
    const review = queue.body.reviews.find((r: { searched_input: string }) => r.searched_input === reviewName);
    expect(review).toBeDefined();
    const decided = await http()
      .post(`/api/sanctions/review/${review.id}?action=approve`)
      .set(bearer(analyst.access_token))
      .send({ reasonCode: 'name_only_coincidence', note: '' });
    expect(decided.status).toBe(200);
    expect(decided.body.review).toMatchObject({ id: review.id, status: 'approved' });
    // The decision names the member who made it, and the owner sees it in the shared queue.
    const approved = await http().get('/api/sanctions/review?status=approved').set(bearer(owner.token));
    expect(approved.body.reviews.find((r: { id: string }) => r.id === review.id)).toMatchObject({
      decided_by_email: 'analyst.one@example.com',
      reason_code: 'name_only_coincidence',
    });

    // …but cannot manage the team.
    expectProblem(await http().get('/api/team/invitations').set(bearer(analyst.access_token)), 403, 'ROLE_FORBIDDEN');
    expectProblem(
      await http()
        .post('/api/team/invitations')
        .set(bearer(analyst.access_token))
        .send({ email: 'friend@example.com', member_role: 'owner' }),
      403,
      'ROLE_FORBIDDEN',
    );
    expectProblem(
      await http()
        .patch(`/api/team/members/${analyst.user.id}`)
        .set(bearer(analyst.access_token))
        .send({ member_role: 'owner' }),
      403,
      'ROLE_FORBIDDEN',
    );
    // Every member sees who is on the team.
    const members = await http().get('/api/team/members').set(bearer(analyst.access_token));
    expect(members.status).toBe(200);
    expect(members.body.members.map((m: { email: string; member_role: string }) => [m.email, m.member_role])).toEqual([
      ['team-owner@example.com', 'owner'],
      ['analyst.one@example.com', 'analyst'],
    ]);
  });

  it('refuses a viewer every decision and setting, and lets them read', async () => {
    const viewer = await join('viewer@example.com', 'viewer');
    expect(viewer.user.member_role).toBe('viewer');
    expect((await http().get('/api/sanctions/review').set(bearer(viewer.access_token))).status).toBe(200);
    expectProblem(
      await http()
        .post('/api/sanctions/review/00000000-0000-4000-8000-000000000000?action=approve')
        .set(bearer(viewer.access_token))
        .send({ reasonCode: 'name_only_coincidence', note: '' }),
      403,
      'ROLE_FORBIDDEN',
    );
    expectProblem(
      await http().post('/api/screen').set(bearer(viewer.access_token)).send({ name: 'Anyone' }),
      403,
      'ROLE_FORBIDDEN',
    );
    expectProblem(
      await http()
        .put('/api/settings/notification-settings')
        .set(bearer(viewer.access_token))
        .send({ weekly_reports: true }),
      403,
      'ROLE_FORBIDDEN',
    );
  });

  it('signs in an existing account without a client to accept, only for the invited address', async () => {
    await http().post('/auth/v1/signup').send({
      full_name: 'Had Account',
      email: 'existing@example.com',
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
    });
    const { value: confirm } = await eventually(
      () => mailTextTo(stack.schema('auth'), 'existing@example.com'),
      (text) => text !== undefined,
      10_000,
    );
    const confirmed = await http()
      .post('/auth/v1/verify')
      .send({ type: 'signup', token: /token=([A-Za-z0-9_-]+)/.exec(confirm!)![1] });
    expect(confirmed.status).toBe(200);
    const existing = confirmed.body as Session;
    expect(existing.user.client_id).toBeNull();

    await invite(owner.token, 'existing@example.com', 'supervisor');
    const { token } = await invitationLink('existing@example.com');
    expect((await http().post('/auth/v1/team-invitations/look-up').send({ token })).body.has_account).toBe(true);
    // Signing up again with the address is refused, and leaves the link usable.
    expectProblem(
      await http()
        .post('/auth/v1/team-invitations/signup')
        .send({ token, full_name: 'X', password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true }),
      409,
      'CONFLICT',
    );
    // Another account cannot use it, nor one that already has a client.
    expectProblem(
      await http().post('/auth/v1/team-invitations/accept').set(bearer(other.token)).send({ token }),
      403,
      'FORBIDDEN',
    );
    const accepted = await http()
      .post('/auth/v1/team-invitations/accept')
      .set(bearer(existing.access_token))
      .send({ token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ client_id: owner.id, member_role: 'supervisor' });
    const members = await http().get('/api/team/members').set(bearer(accepted.body.access_token));
    expect(members.body.members.map((m: { email: string }) => m.email)).toContain('existing@example.com');
  });

  it('changes roles, revokes invitations, and never leaves the client without an owner', async () => {
    const colleague = await join('colleague@example.com', 'analyst');
    const promoted = await http()
      .patch(`/api/team/members/${colleague.user.id}`)
      .set(bearer(owner.token))
      .send({ member_role: 'owner' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ user_id: colleague.user.id, member_role: 'owner' });
    const demoted = await http()
      .patch(`/api/team/members/${colleague.user.id}`)
      .set(bearer(owner.token))
      .send({ member_role: 'viewer' });
    expect(demoted.body.member_role).toBe('viewer');
    // The colleague's token was issued as an analyst: within seconds it only reads.
    await eventually(
      async () =>
        (await http().post('/api/screen').set(bearer(colleague.access_token)).send({ name: 'Anyone' })).body.code,
      (code) => code === 'ROLE_FORBIDDEN',
      5_000,
    );

    const ownerId = (await http().get('/auth/v1/user').set(bearer(owner.token))).body.id as string;
    expectProblem(
      await http().patch(`/api/team/members/${ownerId}`).set(bearer(owner.token)).send({ member_role: 'supervisor' }),
      409,
      'LAST_OWNER',
    );
    expectProblem(await http().delete(`/api/team/members/${ownerId}`).set(bearer(owner.token)), 409, 'LAST_OWNER');
    expectProblem(
      await http().patch(`/api/team/members/${ownerId}`).set(bearer(owner.token)).send({ member_role: 'chief' }),
      400,
      'VALIDATION_FAILED',
    );

    const pending = await invite(owner.token, 'never-joins@example.com', 'viewer');
    const { token } = await invitationLink('never-joins@example.com');
    const open = await http().get('/api/team/invitations').set(bearer(owner.token));
    expect(open.body.invitations.map((i: { id: string }) => i.id)).toContain(pending.id);
    expect((await http().delete(`/api/team/invitations/${pending.id}`).set(bearer(owner.token))).status).toBe(200);
    expect((await http().get('/api/team/invitations').set(bearer(owner.token))).body.invitations).toEqual([]);
    expectProblem(await http().post('/auth/v1/team-invitations/look-up').send({ token }), 400, 'INVALID_LINK');
    expectProblem(
      await http().delete(`/api/team/invitations/${pending.id}`).set(bearer(owner.token)),
      404,
      'NOT_FOUND',
    );
  });

  it("stops a removed member's sessions within 5 s: access token, refresh token and the team's data", async () => {
    const leaver = await join('leaver@example.com', 'analyst');
    expect((await http().get('/api/sanctions/review').set(bearer(leaver.access_token))).status).toBe(200);
    const removed = await http().delete(`/api/team/members/${leaver.user.id}`).set(bearer(owner.token));
    expect(removed.status).toBe(200);
    const { elapsedMs } = await eventually(
      async () => (await http().get('/api/sanctions/review').set(bearer(leaver.access_token))).status,
      (status) => status === 401,
      5_000,
    );
    expect(elapsedMs).toBeLessThan(5_000);
    expect((await http().get('/api/team/members').set(bearer(leaver.access_token))).status).toBe(401);
    const refreshed = await http()
      .post('/auth/v1/token?grant_type=refresh_token')
      .send({ refresh_token: leaver.refresh_token });
    expect(refreshed.status).toBe(401);
    // Signing in again gives an account without a client.
    const again = await http()
      .post('/auth/v1/token?grant_type=password')
      .send({ email: 'leaver@example.com', password: PASSWORD });
    expect(again.body.user).toMatchObject({ client_id: null, member_role: null });
    expect(
      (await http().get('/api/team/members').set(bearer(owner.token))).body.members.map(
        (m: { email: string }) => m.email,
      ),
    ).not.toContain('leaver@example.com');
  });

  it("keeps client B's team out of reach of client A's owner", async () => {
    const bMember = await (async () => {
      const res = await http()
        .post('/api/team/invitations')
        .set(bearer(other.token))
        .send({ email: 'b-analyst@example.com', member_role: 'analyst' });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    })();
    const aMembers = (await http().get('/api/team/members').set(bearer(owner.token))).body.members as {
      user_id: string;
      email: string;
    }[];
    const bMembers = (await http().get('/api/team/members').set(bearer(other.token))).body.members as {
      user_id: string;
      email: string;
    }[];
    expect(aMembers.map((m) => m.email)).not.toContain('other-owner@example.com');
    expect(bMembers.map((m) => m.email)).toEqual(['other-owner@example.com']);
    const aInvitations = (await http().get('/api/team/invitations').set(bearer(owner.token))).body.invitations as {
      id: string;
    }[];
    expect(aInvitations.map((i) => i.id)).not.toContain(bMember.id);

    const bOwnerId = bMembers[0]!.user_id;
    expectProblem(
      await http().patch(`/api/team/members/${bOwnerId}`).set(bearer(owner.token)).send({ member_role: 'viewer' }),
      404,
      'NOT_FOUND',
    );
    expectProblem(await http().delete(`/api/team/members/${bOwnerId}`).set(bearer(owner.token)), 404, 'NOT_FOUND');
    expectProblem(
      await http().delete(`/api/team/invitations/${bMember.id}`).set(bearer(owner.token)),
      404,
      'NOT_FOUND',
    );
    // The invitation B sent still works: A's attempts changed nothing.
    expect((await http().get('/api/team/invitations').set(bearer(other.token))).body.invitations).toHaveLength(1);
    expect((await http().get('/api/team/members').set(bearer(other.token))).body.members[0].member_role).toBe('owner');
  });
});
