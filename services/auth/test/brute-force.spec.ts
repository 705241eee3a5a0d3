import { jest } from '@jest/globals';
import { subjects, type ChallengeReply, type EnrollFactorReply, type Session } from '@vigil/proto';
import { Secret, TOTP } from 'otpauth';
import { TEST_PASSWORD, claimsOf, startAuthStack, userSession, type AuthStack } from './harness.js';

jest.setTimeout(90_000);

/**
 * The production rule per email and address (10 in 15 minutes); limits per IP and per account
 * (all addresses together) low enough to reach in a test.
 */
const PER_IP = 15;
const PER_ACCOUNT = 20;

describe('brute force: counted before the password is checked, per email and per IP, without locking the owner out', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({
      LOGIN_MAX_FAILURES_PER_IP: String(PER_IP),
      LOGIN_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
    });
  });
  afterAll(() => stack?.stop());

  const grant = (email: string, password: string, ip: string, extra: object = {}) =>
    stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password, ip, ...extra }).then(
      (session) => ({ code: 'OK', session }),
      (error: { code?: string }) => ({ code: error.code ?? String(error), session: undefined }),
    );

  it('evaluates only 10 of 25 parallel wrong passwords for one account', async () => {
    await userSession(stack, 'target@example.com');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => grant('target@example.com', `wrong-password-${i}`, '198.51.100.1')),
    );
    const counts = answers.reduce<Record<string, number>>(
      (acc, a) => ({ ...acc, [a.code]: (acc[a.code] ?? 0) + 1 }),
      {},
    );
    // Each INVALID_CREDENTIALS is one password the service checked; the rest were refused unchecked.
    expect(counts).toEqual({ INVALID_CREDENTIALS: 10, RATE_LIMITED: 15 });
    const { rows } = await stack.db.query(
      `SELECT count(*)::int AS n FROM login_attempts WHERE email = 'target@example.com' AND NOT succeeded`,
    );
    expect(rows[0].n).toBe(10);
  });

  it('limits failures per IP across accounts, and only for that IP', async () => {
    const spray = await Promise.all(
      Array.from({ length: PER_IP }, (_, i) => grant(`sprayed-${i}@example.com`, 'Winter2026!', '203.0.113.50')),
    );
    expect(spray.every((a) => a.code === 'INVALID_CREDENTIALS')).toBe(true);
    expect((await grant('sprayed-next@example.com', 'Winter2026!', '203.0.113.50')).code).toBe('RATE_LIMITED');
    expect((await grant('sprayed-next@example.com', 'Winter2026!', '203.0.113.51')).code).toBe('INVALID_CREDENTIALS');
  });

  it('lets a locked-out owner in with the right password and a valid TOTP code, so the lock cannot deny service', async () => {
    const first = await userSession(stack, 'owner@example.com');
    const enrolled = await stack.call<EnrollFactorReply>(subjects.auth.enrollFactor, {
      accessToken: first.access_token,
    });
    const totp = new TOTP({
      secret: Secret.fromBase32(enrolled.totp.secret),
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });
    const challenge = await stack.call<ChallengeReply>(subjects.auth.challengeFactor, {
      accessToken: first.access_token,
      factor_id: enrolled.id,
    });
    await stack.call(subjects.auth.verifyFactor, {
      accessToken: first.access_token,
      factor_id: enrolled.id,
      challenge_id: challenge.id,
      code: totp.generate(),
    });

    // An attacker locks the account, guessing from two addresses (one alone locks only itself out).
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        grant('owner@example.com', `attacker-guess-${i}`, i % 2 ? '192.0.2.66' : '192.0.2.67'),
      ),
    );
    expect((await grant('owner@example.com', TEST_PASSWORD, '192.0.2.10')).code).toBe('RATE_LIMITED');

    // The next step's code: the current one was spent on the enrolment, and each is good once.
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const wrongCode = code === '000000' ? '111111' : '000000';
    // A wrong code, or the right code with a wrong password, is the same refusal as the lock itself.
    expect((await grant('owner@example.com', TEST_PASSWORD, '192.0.2.10', { mfa_code: wrongCode })).code).toBe(
      'RATE_LIMITED',
    );
    expect((await grant('owner@example.com', 'attacker-guess-x', '192.0.2.10', { mfa_code: code })).code).toBe(
      'RATE_LIMITED',
    );

    const owner = await grant('owner@example.com', TEST_PASSWORD, '192.0.2.10', { mfa_code: code });
    expect(owner.code).toBe('OK');
    // Both factors were shown: the session is aal2 at once.
    expect(claimsOf(owner.session!.access_token)).toMatchObject({
      aal: 'aal2',
      amr: expect.arrayContaining(['password', 'totp']),
    });

    // The owner getting in does not lift the lock for the attacker.
    expect((await grant('owner@example.com', 'attacker-guess-y', '192.0.2.66')).code).toBe('RATE_LIMITED');
    // And the code that let the owner in is spent.
    expect((await grant('owner@example.com', TEST_PASSWORD, '192.0.2.10', { mfa_code: code })).code).toBe(
      'RATE_LIMITED',
    );
  });

  it('gives an account without a factor the same refusal for a code as for none', async () => {
    await userSession(stack, 'plain@example.com');
    await Promise.all(Array.from({ length: 10 }, (_, i) => grant('plain@example.com', `nope-${i}-nope`, '192.0.2.70')));
    expect((await grant('plain@example.com', TEST_PASSWORD, '192.0.2.70', { mfa_code: '123456' })).code).toBe(
      'RATE_LIMITED',
    );
    expect((await grant('ghost@example.com', TEST_PASSWORD, '192.0.2.71', { mfa_code: '123456' })).code).toBe(
      'INVALID_CREDENTIALS',
    );
  });
});
