import { jest } from '@jest/globals';
import { RECOVER_MESSAGE, SIGNUP_MESSAGE, sessionSchema, subjects, type Session, type User } from '@vigil/proto';
import { claimsOf, eventually, startAuthStack, tokenFromMail, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

const PASSWORD = 'lantern-orchard-42';

describe('accounts: sign-up, confirmation, sign-in, refresh, sessions, recovery', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack();
  });
  afterAll(() => stack?.stop());

  async function signUpAndConfirm(email: string, password = PASSWORD): Promise<Session> {
    await stack.call(subjects.auth.signup, { full_name: 'Test Person', email, password, confirm_password: password, accepted_terms: true });
    const [mail] = await stack.waitForMail(email, 1);
    return stack.call<Session>(subjects.auth.verify, { type: 'signup', token: tokenFromMail(mail!) });
  }

  const signIn = (email: string, password = PASSWORD, extra: object = {}) =>
    stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password, ...extra });

  it('signs up, mails a confirmation link, refuses sign-in until confirmed, then answers the Session shape', async () => {
    const reply = await stack.call<{ message: string; admin: boolean }>(subjects.auth.signup, {
      full_name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
    });
    expect(reply).toEqual({ message: SIGNUP_MESSAGE, admin: false });
    expect(reply.message).toBe('Account created! Please check your email to confirm your account.');

    const unconfirmed = await stack.fail(subjects.auth.token, { grant_type: 'password', email: 'ada@example.com', password: PASSWORD });
    expect(unconfirmed.code).toBe('EMAIL_NOT_CONFIRMED');

    const [mail] = await stack.waitForMail('ada@example.com', 1);
    expect(mail!.subject).toBe('Confirm your Vigil account');
    expect(mail!.text).toContain('http://web.test/login?type=signup&token=');
    const confirmed = await stack.call<Session>(subjects.auth.verify, { type: 'signup', token: tokenFromMail(mail!) });
    expect(sessionSchema.parse(confirmed).user.email_confirmed_at).not.toBeNull();
    // The link is single-use.
    expect((await stack.fail(subjects.auth.verify, { type: 'signup', token: tokenFromMail(mail!) })).code).toBe('INVALID_LINK');

    const session = await signIn('ADA@example.com ');
    expect(sessionSchema.parse(session)).toBeTruthy();
    expect(session.token_type).toBe('bearer');
    expect(session.expires_in).toBe(900);
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000 + 890);
    expect(session.user).toMatchObject({ email: 'ada@example.com', full_name: 'Ada Lovelace', role: 'user', client_id: null, factors: [] });
    expect(session.user.identities.map((i) => i.provider)).toEqual(['email']);

    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'vigil-auth', aud: 'vigil-api', sub: session.user.id, role: 'user', client_id: null, aal: 'aal1' });
    expect(claims.exp - claims.iat).toBe(900);

    const stored = await stack.db.query(`SELECT password_hash FROM users WHERE email = 'ada@example.com'`);
    expect(stored.rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('rejects mismatched, short and common passwords with the spec messages', async () => {
    const base = { full_name: 'X', email: 'x@example.com', accepted_terms: true };
    const mismatch = await stack.fail(subjects.auth.signup, { ...base, password: PASSWORD, confirm_password: 'other-password' });
    expect(mismatch.code).toBe('VALIDATION_FAILED');
    expect(mismatch.errors).toEqual([{ pointer: '/confirm_password', detail: 'Passwords do not match.' }]);
    const short = await stack.fail(subjects.auth.signup, { ...base, password: 'short', confirm_password: 'short' });
    expect(short.errors?.[0]).toEqual({ pointer: '/password', detail: 'Password must be at least 8 characters.' });
    const common = await stack.fail(subjects.auth.signup, { ...base, password: 'Password123', confirm_password: 'Password123' });
    expect(common.errors?.[0]?.pointer).toBe('/password');
  });

  it('answers a sign-up for an existing email like a new one, and tells the owner instead', async () => {
    await signUpAndConfirm('taken@example.com');
    const again = await stack.call(subjects.auth.signup, { full_name: 'Impostor', email: 'taken@example.com', password: 'another-pass-99', confirm_password: 'another-pass-99', accepted_terms: true });
    expect(again).toEqual({ message: SIGNUP_MESSAGE, admin: false });
    const mails = await stack.waitForMail('taken@example.com', 2);
    expect(mails[0]!.subject).toBe('Someone tried to sign up with your email');
    await expect(signIn('taken@example.com')).resolves.toBeTruthy();
  });

  it('rotates refresh tokens, and reuse of a rotated token revokes the whole family', async () => {
    await signUpAndConfirm('rotate@example.com');
    const first = await signIn('rotate@example.com');
    const second = await stack.call<Session>(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const third = await stack.call<Session>(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: second.refresh_token });

    // The already-rotated first token comes back: someone copied it.
    const reuse = await stack.fail(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(reuse.code).toBe('REFRESH_TOKEN_REUSED');
    // The legitimate holder's newest token and access token are dead too.
    expect((await stack.fail(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: third.refresh_token })).code).toBe('UNAUTHENTICATED');
    expect((await stack.fail(subjects.auth.getUser, { accessToken: third.access_token })).code).toBe('UNAUTHENTICATED');
    // Another session of the same user is untouched.
    const other = await signIn('rotate@example.com');
    await expect(stack.call<User>(subjects.auth.getUser, { accessToken: other.access_token })).resolves.toMatchObject({ email: 'rotate@example.com' });
  });

  it('gives a token presented again moments after its rotation, before its successor was used, a new token of the same session', async () => {
    // A page reloaded while its refresh was in flight never stored the answer and presents the old token again.
    await signUpAndConfirm('reload@example.com');
    const first = await signIn('reload@example.com');
    const lost = await stack.call<Session>(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    const retried = await stack.call<Session>(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(retried.refresh_token).not.toBe(lost.refresh_token);
    expect(claimsOf(retried.access_token).sid).toBe(claimsOf(first.access_token).sid);
    const next = await stack.call<Session>(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: retried.refresh_token });
    await expect(stack.call<User>(subjects.auth.getUser, { accessToken: next.access_token })).resolves.toMatchObject({ email: 'reload@example.com' });

    // Once a newer token of the session has been used, the old one coming back is theft again.
    const late = await stack.fail(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(late.code).toBe('REFRESH_TOKEN_REUSED');
    expect((await stack.fail(subjects.auth.getUser, { accessToken: next.access_token })).code).toBe('UNAUTHENTICATED');
  });

  it('"Remember me" decides how long the refresh token lives', async () => {
    await signUpAndConfirm('remember@example.com');
    const short = await signIn('remember@example.com');
    const long = await signIn('remember@example.com', PASSWORD, { remember_me: true });
    const { sessions } = await stack.call<{ sessions: { id: string; expires_at: string; remember_me: boolean; current: boolean }[] }>(
      subjects.auth.listSessions,
      { accessToken: long.access_token },
    );
    // The confirmation link signed in too: three sessions, one of them remembered.
    expect(sessions).toHaveLength(3);
    const hours = (s: { expires_at: string }) => (Date.parse(s.expires_at) - Date.now()) / 3_600_000;
    const current = sessions.find((s) => s.current)!;
    const shortId = JSON.parse(Buffer.from(short.access_token.split('.')[1]!, 'base64url').toString()).sid;
    const other = sessions.find((s) => s.id === shortId)!;
    expect(other.remember_me).toBe(false);
    expect(current.remember_me).toBe(true);
    expect(hours(current)).toBeGreaterThan(29 * 24);
    expect(hours(other)).toBeLessThanOrEqual(24);
    expect(hours(other)).toBeGreaterThan(23);
  });

  it('lists and revokes sessions, and a global sign-out ends all of them', async () => {
    await signUpAndConfirm('sessions@example.com');
    const a = await signIn('sessions@example.com');
    const b = await signIn('sessions@example.com');
    const c = await signIn('sessions@example.com');
    const listed = await stack.call<{ sessions: { id: string; current: boolean }[] }>(subjects.auth.listSessions, { accessToken: a.access_token });
    const bId = JSON.parse(Buffer.from(b.access_token.split('.')[1]!, 'base64url').toString()).sid;
    expect(listed.sessions.map((s) => s.id)).toContain(bId);

    const revokedEvents = stack.events(subjects.auth.sessionRevoked);
    await stack.call(subjects.auth.revokeSession, { accessToken: a.access_token, session_id: bId });
    expect((await stack.fail(subjects.auth.getUser, { accessToken: b.access_token })).code).toBe('UNAUTHENTICATED');
    await expect(stack.call(subjects.auth.getUser, { accessToken: c.access_token })).resolves.toBeTruthy();

    await stack.call(subjects.auth.logout, { accessToken: a.access_token, scope: 'global' });
    for (const s of [a, c]) {
      expect((await stack.fail(subjects.auth.getUser, { accessToken: s.access_token })).code).toBe('UNAUTHENTICATED');
      expect((await stack.fail(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: s.refresh_token })).code).toBe('UNAUTHENTICATED');
    }
    // Each ended session was announced, so a gateway verifying tokens locally can stop accepting them now.
    const { value: events } = await eventually(() => revokedEvents.received as { session_id: string; reason: string }[], (r) => r.length >= 4);
    revokedEvents.stop();
    expect(events.find((e) => e.session_id === bId)?.reason).toBe('revoked_by_user');
    const globalIds = events.filter((e) => e.reason === 'logout_global').map((e) => e.session_id);
    expect(globalIds).toEqual(expect.arrayContaining([claimsOf(a.access_token).sid, claimsOf(c.access_token).sid]));
  });

  it('cannot revoke another user\'s session', async () => {
    const mine = await signUpAndConfirm('bola-a@example.com');
    const theirs = await signUpAndConfirm('bola-b@example.com');
    const theirSid = JSON.parse(Buffer.from(theirs.access_token.split('.')[1]!, 'base64url').toString()).sid;
    expect((await stack.fail(subjects.auth.revokeSession, { accessToken: mine.access_token, session_id: theirSid })).code).toBe('NOT_FOUND');
    await expect(stack.call(subjects.auth.getUser, { accessToken: theirs.access_token })).resolves.toBeTruthy();
  });

  it('forgot password: same answer for known and unknown emails; the link works once and ends old sessions', async () => {
    const before = await signUpAndConfirm('forgot@example.com');
    const known = await stack.call(subjects.auth.recover, { email: 'forgot@example.com' });
    const unknown = await stack.call(subjects.auth.recover, { email: 'nobody@example.com' });
    expect(known).toEqual({ message: RECOVER_MESSAGE });
    expect(unknown).toEqual(known);

    const mails = await stack.waitForMail('forgot@example.com', 2);
    const reset = mails.find((m) => m.subject === 'Reset your Vigil password')!;
    expect(reset.text).toContain('expires in 1 hour');
    const token = tokenFromMail(reset);
    expect(await stack.mailbox('nobody@example.com')).toEqual([]);

    await stack.call(subjects.auth.verify, { type: 'recovery', token, password: 'brand-new-secret-7' });
    const again = await stack.fail(subjects.auth.verify, { type: 'recovery', token, password: 'another-secret-8' });
    expect(again.code).toBe('INVALID_LINK');

    expect((await stack.fail(subjects.auth.token, { grant_type: 'password', email: 'forgot@example.com', password: PASSWORD })).code).toBe('INVALID_CREDENTIALS');
    await expect(signIn('forgot@example.com', 'brand-new-secret-7')).resolves.toBeTruthy();
    expect((await stack.fail(subjects.auth.getUser, { accessToken: before.access_token })).code).toBe('UNAUTHENTICATED');
  });

  it('forgot password takes as long for an unknown email as for a known one', async () => {
    await signUpAndConfirm('timing@example.com');
    const timed = async (email: string) => {
      const started = performance.now();
      await stack.call(subjects.auth.recover, { email });
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so load on the machine hits both alike.
    for (let i = 0; i < 8; i++) {
      known.push(await timed('timing@example.com'));
      unknown.push(await timed(`ghost-${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // The lookup and the mail happen after the answer, so both are one broker round trip.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(30);
    // Eight requests, one mail: reset mail is limited to one a minute per account.
    await new Promise((r) => setTimeout(r, 300));
    expect((await stack.mailbox('timing@example.com')).filter((m) => m.subject === 'Reset your Vigil password')).toHaveLength(1);
  });

  it('a reset link expires after an hour', async () => {
    await signUpAndConfirm('expired@example.com');
    await stack.call(subjects.auth.recover, { email: 'expired@example.com' });
    const mails = await stack.waitForMail('expired@example.com', 2);
    const token = tokenFromMail(mails.find((m) => m.subject === 'Reset your Vigil password')!);
    const { rows } = await stack.db.query(`SELECT round(extract(epoch FROM expires_at - created_at))::int AS ttl FROM one_time_tokens WHERE purpose = 'recovery'`);
    expect(rows[0].ttl).toBe(3600);
    await stack.db.query(`UPDATE one_time_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'recovery'`);
    expect((await stack.fail(subjects.auth.verify, { type: 'recovery', token, password: 'too-late-password' })).code).toBe('INVALID_LINK');
  });

  it('updates the profile and changes the password only with the current one', async () => {
    const session = await signUpAndConfirm('profile@example.com');
    const renamed = await stack.call<User>(subjects.auth.updateUser, { accessToken: session.access_token, full_name: 'New Name' });
    expect(renamed.full_name).toBe('New Name');
    const wrong = await stack.fail(subjects.auth.updateUser, { accessToken: session.access_token, password: 'fresh-password-1', current_password: 'nope-nope-nope' });
    expect(wrong.code).toBe('VALIDATION_FAILED');
    await stack.call(subjects.auth.updateUser, { accessToken: session.access_token, password: 'fresh-password-1', current_password: PASSWORD });
    await expect(signIn('profile@example.com', 'fresh-password-1')).resolves.toBeTruthy();
  });

  it('rejects forged, expired and foreign access tokens', async () => {
    const session = await signUpAndConfirm('jwt@example.com');
    const [header, payload] = session.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${session.access_token.split('.')[2]}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const accessToken of [forged, none, 'not-a-jwt']) {
      expect((await stack.fail(subjects.auth.getUser, { accessToken })).code).toBe('UNAUTHENTICATED');
    }
  });
});
