import { jest } from '@jest/globals';
import { SIGNUP_MESSAGE, subjects } from '@vigil/proto';
import {
  TEST_PASSWORD,
  adminSession,
  insertInvitation,
  startAuthStack,
  userSession,
  type AuthStack,
} from './harness.js';

jest.setTimeout(60_000);

/** What sign-up must not tell a stranger: who has an account, who is on the admin allow-list, which admins exist. */
describe('sign-up discloses nothing and floods no inbox', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({
      ADMIN_EMAILS: 'boss@vigil.dev,partner@outside.example',
      ADMIN_EMAIL_DOMAIN: 'vigil.dev',
    });
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
  const answer = (email: string, extra: object = {}) =>
    stack.call<{ message: string }>(subjects.auth.signup, form(email, extra)).then(
      (reply) => `ok:${reply.message}`,
      (error: { code?: string; message?: string }) => `${error.code}:${error.message}`,
    );

  it('sends the "someone tried to sign up with your email" notice once per address in a while, however often it is tried', async () => {
    await userSession(stack, 'taken@example.com');
    const replies = await Promise.all(Array.from({ length: 5 }, () => answer('taken@example.com')));
    expect(replies).toEqual(Array.from({ length: 5 }, () => `ok:${SIGNUP_MESSAGE}`));
    await new Promise((r) => setTimeout(r, 300));
    const notices = (await stack.mailbox('taken@example.com')).filter(
      (m) => m.subject === 'Someone tried to sign up with your email',
    );
    expect(notices).toHaveLength(1);
    // Another address still gets its own notice.
    await userSession(stack, 'other@example.com');
    await answer('other@example.com');
    await stack.waitForMail('other@example.com', 2);
  });

  it('answers every failed company-domain sign-up with a code the same way: not approved, wrong code, or an existing admin', async () => {
    await adminSession(stack, 'boss@vigil.dev');
    await insertInvitation(stack, 'GOOD-CODE-0001');
    const answers = [
      await answer('intern@vigil.dev', { invitation_code: 'GOOD-CODE-0001' }), // not on the list, valid code
      await answer('boss@vigil.dev', { invitation_code: 'GOOD-CODE-0001' }), // on the list, has an account
      await answer('intern@vigil.dev', { invitation_code: 'WRONG-CODE' }),
      await answer('nobody@vigil.dev', { invitation_code: 'WRONG-CODE' }),
    ];
    expect(new Set(answers)).toEqual(
      new Set(['INVALID_INVITATION:Invalid Invitation: The invitation code is invalid or expired.']),
    );
    // The code survived all of it.
    const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM invitation_codes WHERE used_at IS NULL`);
    expect(rows[0].n).toBe(1);
  });

  it('asks every company-domain address for a code, on the list or not', async () => {
    expect(await answer('intern@vigil.dev')).toBe(await answer('boss@vigil.dev'));
    expect(await answer('intern@vigil.dev')).toMatch(/^INVITATION_REQUIRED:/);
  });

  it('answers an allow-listed address elsewhere like anyone else unless its invitation code is valid', async () => {
    const outsider = await answer('stranger@outside.example', { invitation_code: 'WRONG-CODE' });
    expect(await answer('partner@outside.example', { invitation_code: 'WRONG-CODE' })).toBe(outsider);
    expect(outsider).toBe(`ok:${SIGNUP_MESSAGE}`);
  });
});
