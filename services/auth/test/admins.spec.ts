import { jest } from '@jest/globals';
import { ADMIN_SIGNUP_MESSAGE, subjects, type InvitationReply, type Session } from '@vigil/proto';
import { TEST_PASSWORD, adminSession, claimsOf, insertInvitation, startAuthStack, userSession, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

describe('admin sign-up: allow-listed email AND a valid invitation code, both checked on the server', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ ADMIN_EMAILS: 'boss@vigil.dev, ops@vigil.dev,partner@outside.example', ADMIN_EMAIL_DOMAIN: 'vigil.dev' });
  });
  afterAll(() => stack?.stop());

  const form = (email: string, extra: object = {}) => ({
    full_name: 'Someone',
    email,
    password: TEST_PASSWORD,
    confirm_password: TEST_PASSWORD,
    accepted_terms: true,
    ...extra,
  });
  const roleInDb = async (email: string) => (await stack.db.query(`SELECT role FROM users WHERE email = $1`, [email])).rows[0]?.role;

  it('refuses a company-domain email that is not on the list, even with a valid code, as it refuses a wrong code', async () => {
    await insertInvitation(stack, 'GOOD-CODE-0001');
    const error = await stack.fail(subjects.auth.signup, form('intern@vigil.dev', { invitation_code: 'GOOD-CODE-0001' }));
    // Not "Access Denied": that would tell a stranger who is on the allow-list (signup-disclosure.spec.ts).
    expect(error.code).toBe('INVALID_INVITATION');
    expect(error.message).toBe('Invalid Invitation: The invitation code is invalid or expired.');
    expect(await roleInDb('intern@vigil.dev')).toBeUndefined();
  });

  it('asks an approved email for its invitation code', async () => {
    const error = await stack.fail(subjects.auth.signup, form('boss@vigil.dev'));
    expect(error.code).toBe('INVITATION_REQUIRED');
    expect(error.message).toMatch(/^Invitation Required/);
  });

  it('never yields the admin role without a valid code, even when the request is forged', async () => {
    const forged = await stack.fail(subjects.auth.signup, form('boss@vigil.dev', { invitation_code: 'NOT-A-REAL-CODE', role: 'admin', admin: true, email_confirmed_at: 'now' }));
    expect(forged.code).toBe('INVALID_INVITATION');
    expect(forged.message).toBe('Invalid Invitation: The invitation code is invalid or expired.');
    expect(await roleInDb('boss@vigil.dev')).toBeUndefined();

    // A regular email with a real code and a forged role stays a regular user, and the code stays unused.
    await insertInvitation(stack, 'REAL-CODE-0002');
    const regular = await stack.call<{ admin: boolean }>(subjects.auth.signup, form('someone@example.com', { invitation_code: 'REAL-CODE-0002', role: 'admin' }));
    expect(regular.admin).toBe(false);
    expect(await roleInDb('someone@example.com')).toBe('user');
    const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM invitation_codes WHERE used_at IS NOT NULL`);
    expect(rows[0].n).toBe(0);

    // An expired code is as good as none.
    await insertInvitation(stack, 'OLD-CODE-0003', -1);
    expect((await stack.fail(subjects.auth.signup, form('ops@vigil.dev', { invitation_code: 'OLD-CODE-0003' }))).code).toBe('INVALID_INVITATION');
    expect(await roleInDb('ops@vigil.dev')).toBeUndefined();
  });

  it('creates the admin with a valid code, who signs in directly; the code works once', async () => {
    await insertInvitation(stack, 'ONCE-ONLY-0004');
    const created = await stack.call(subjects.auth.signup, form('boss@vigil.dev', { invitation_code: 'once-only-0004' }));
    expect(created).toEqual({ message: ADMIN_SIGNUP_MESSAGE, admin: true });
    expect(ADMIN_SIGNUP_MESSAGE).toBe('Admin account created! You can now sign in directly.');

    const session = await stack.call<Session>(subjects.auth.token, { grant_type: 'password', email: 'boss@vigil.dev', password: TEST_PASSWORD });
    expect(session.user.role).toBe('admin');
    expect(claimsOf(session.access_token).role).toBe('admin');

    const reuse = await stack.fail(subjects.auth.signup, form('ops@vigil.dev', { invitation_code: 'ONCE-ONLY-0004' }));
    expect(reuse.code).toBe('INVALID_INVITATION');
  });

  it('lets an admin issue invitation codes, and nobody else', async () => {
    const admin = await adminSession(stack, 'partner@outside.example');
    const invitation = await stack.call<InvitationReply>(subjects.auth.createInvitation, { accessToken: admin.access_token, expires_in_hours: 2 });
    expect(invitation.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(Date.parse(invitation.expires_at) - Date.now()).toBeGreaterThan(1.9 * 3_600_000);
    const stored = await stack.db.query(`SELECT code_hash FROM invitation_codes WHERE id = $1`, [invitation.id]);
    expect(stored.rows[0].code_hash).not.toContain(invitation.code);

    const created = await stack.call<{ admin: boolean }>(subjects.auth.signup, form('ops@vigil.dev', { invitation_code: invitation.code }));
    expect(created.admin).toBe(true);

    const user = await userSession(stack, 'plain@example.com');
    expect((await stack.fail(subjects.auth.createInvitation, { accessToken: user.access_token })).code).toBe('FORBIDDEN');
  });
});
