import { jest } from '@jest/globals';
import { RESEND_MESSAGE, UNLOCK_MESSAGE, subjects, type MessageReply, type Session } from '@vigil/proto';
import { TEST_PASSWORD, eventually, startAuthStack, tokenFromMail, userSession, type AuthStack } from './harness.js';

jest.setTimeout(90_000);

describe('resending the confirmation link', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack();
  });
  afterAll(() => stack?.stop());

  const signUp = (email: string) =>
    stack.call(subjects.auth.signup, {
      full_name: 'Pending Person',
      email,
      password: TEST_PASSWORD,
      confirm_password: TEST_PASSWORD,
      accepted_terms: true,
    });

  it('mails a new link that confirms the account, and retires the first one', async () => {
    await signUp('pending@example.com');
    const [first] = await stack.waitForMail('pending@example.com', 1);
    // The per-account interval counts from the first link: let it pass, as a user waiting for mail would.
    await stack.db.query(`UPDATE one_time_tokens SET created_at = now() - interval '2 minutes'`);
    const reply = await stack.call<MessageReply>(subjects.auth.resend, {
      type: 'signup',
      email: 'pending@example.com',
      ip: '198.51.100.20',
    });
    expect(reply.message).toBe(RESEND_MESSAGE);
    const mails = await stack.waitForMail('pending@example.com', 2);
    const second = mails.find((m) => tokenFromMail(m) !== tokenFromMail(first!))!;
    expect(second.subject).toMatch(/confirm/i);
    expect((await stack.fail(subjects.auth.verify, { type: 'signup', token: tokenFromMail(first!) })).code).toBe(
      'INVALID_LINK',
    );
    const session = await stack.call<Session>(subjects.auth.verify, { type: 'signup', token: tokenFromMail(second) });
    expect(session.user.email).toBe('pending@example.com');
  });

  it('answers the same for an unknown, a confirmed and a pending address, and mails only the pending one', async () => {
    await userSession(stack, 'confirmed@example.com');
    await signUp('waiting@example.com');
    await stack.db.query(`UPDATE one_time_tokens SET created_at = now() - interval '2 minutes'`);
    const before = {
      confirmed: (await stack.mailbox('confirmed@example.com')).length,
      waiting: (await stack.mailbox('waiting@example.com')).length,
    };
    const replies = [];
    for (const [i, email] of ['nobody@example.com', 'confirmed@example.com', 'waiting@example.com'].entries()) {
      replies.push(await stack.call<MessageReply>(subjects.auth.resend, { email, ip: `198.51.100.${30 + i}` }));
    }
    expect(new Set(replies.map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify({ message: RESEND_MESSAGE })]),
    );
    await stack.waitForMail('waiting@example.com', before.waiting + 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await stack.mailbox('nobody@example.com')).toEqual([]);
    expect((await stack.mailbox('confirmed@example.com')).length).toBe(before.confirmed);
  });

  it('is rate limited per IP, and sends one link a minute per account however often it is asked', async () => {
    await signUp('flood@example.com');
    await stack.waitForMail('flood@example.com', 1);
    expect(
      (await stack.call<MessageReply>(subjects.auth.resend, { email: 'flood@example.com', ip: '203.0.113.9' })).message,
    ).toBe(RESEND_MESSAGE);
    const again = await stack.fail(subjects.auth.resend, { email: 'someone-else@example.com', ip: '203.0.113.9' });
    expect(again.code).toBe('RATE_LIMITED');
    for (let i = 0; i < 5; i++) {
      await stack.call(subjects.auth.resend, { email: 'flood@example.com', ip: `203.0.113.${100 + i}` });
    }
    await new Promise((r) => setTimeout(r, 800));
    // The sign-up's link only: every resend fell within the minute after it.
    expect(await stack.mailbox('flood@example.com')).toHaveLength(1);
  });
});

describe('the emailed unlock link of a locked account', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ LOGIN_MAX_FAILURES_PER_IP: '50' });
  });
  afterAll(() => stack?.stop());

  const grant = (email: string, password: string, ip: string) =>
    stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password, ip }).then(
      () => 'OK',
      (error: { code?: string }) => error.code ?? String(error),
    );

  it('reaches the owner when the email is locked; it works once, lifts the lock, and then expires', async () => {
    await userSession(stack, 'locked@example.com');
    // The owner's own ten typos: the owner's address is locked out of the account.
    for (let i = 0; i < 10; i++) await grant('locked@example.com', `guess-${i}`, '192.0.2.66');
    expect(await grant('locked@example.com', TEST_PASSWORD, '192.0.2.66')).toBe('RATE_LIMITED');

    const { value: mails } = await eventually(
      () => stack.mailbox('locked@example.com'),
      (list) => list.some((m) => /locked/i.test(m.subject)),
      5_000,
    );
    const unlock = mails.find((m) => /locked/i.test(m.subject))!;
    expect(unlock.text).toContain('/login?type=unlock&token=');
    // More refused attempts in the same window do not send another.
    expect(await grant('locked@example.com', 'guess-again', '192.0.2.66')).toBe('RATE_LIMITED');
    await new Promise((r) => setTimeout(r, 500));
    expect((await stack.mailbox('locked@example.com')).filter((m) => /locked/i.test(m.subject))).toHaveLength(1);

    const token = tokenFromMail(unlock);
    expect(await stack.call<MessageReply>(subjects.auth.verify, { type: 'unlock', token })).toEqual({
      message: UNLOCK_MESSAGE,
    });
    expect(await grant('locked@example.com', TEST_PASSWORD, '192.0.2.66')).toBe('OK');
    // Single use.
    expect((await stack.fail(subjects.auth.verify, { type: 'unlock', token })).code).toBe('INVALID_LINK');
    // The guessing IP is still counted on its own: unlocking the email did not reset it.
    const { rows } = await stack.db.query(
      `SELECT count(*)::int AS n FROM login_attempts WHERE ip = '192.0.2.66' AND NOT succeeded`,
    );
    expect(rows[0].n).toBeGreaterThanOrEqual(10);
  });

  it('does not work once expired', async () => {
    await userSession(stack, 'late@example.com');
    for (let i = 0; i < 10; i++) await grant('late@example.com', `guess-${i}`, '192.0.2.77');
    expect(await grant('late@example.com', TEST_PASSWORD, '192.0.2.77')).toBe('RATE_LIMITED');
    const { value: mails } = await eventually(
      () => stack.mailbox('late@example.com'),
      (list) => list.some((m) => /locked/i.test(m.subject)),
      5_000,
    );
    await stack.db.query(
      `UPDATE one_time_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'unlock'`,
    );
    const token = tokenFromMail(mails.find((m) => /locked/i.test(m.subject))!);
    expect((await stack.fail(subjects.auth.verify, { type: 'unlock', token })).code).toBe('INVALID_LINK');
    expect(await grant('late@example.com', TEST_PASSWORD, '192.0.2.77')).toBe('RATE_LIMITED');
  });

  it('is not sent for an address without an account', async () => {
    for (let i = 0; i < 11; i++) await grant('ghost@example.com', `guess-${i}`, '192.0.2.88');
    await new Promise((r) => setTimeout(r, 500));
    expect(await stack.mailbox('ghost@example.com')).toEqual([]);
  });
});
