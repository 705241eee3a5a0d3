import { jest } from '@jest/globals';
import { failedAuthEventSchema, subjects, type Session } from '@vigil/proto';
import { TEST_PASSWORD, eventually, startAuthStack, userSession, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

// A short window so the test can wait it out; the rule (10 failures → 429) is the production one.
const WINDOW_SECONDS = 4;

describe('brute-force limit on password sign-in', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ LOGIN_WINDOW_SECONDS: String(WINDOW_SECONDS) });
  });
  afterAll(() => stack?.stop());

  const attempt = (email: string, password: string) =>
    stack.fail(subjects.auth.token, { grant_type: 'password', email, password, ip: '203.0.113.7', userAgent: 'curl/8' });

  it('the 11th bad password gets 429 with Retry-After, and the right password works again after the window', async () => {
    await userSession(stack, 'victim@example.com');
    const events = stack.events(subjects.auth.failedAuth);

    for (let i = 1; i <= 10; i++) expect((await attempt('victim@example.com', `wrong-password-${i}`)).code).toBe('INVALID_CREDENTIALS');
    const locked = await attempt('victim@example.com', 'wrong-password-11');
    expect(locked.code).toBe('RATE_LIMITED');
    expect(locked.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(locked.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
    // Locked means locked: the right password gets the same answer until the window passes.
    expect((await attempt('victim@example.com', TEST_PASSWORD)).code).toBe('RATE_LIMITED');

    // Every checked failure was published with the email and the caller's ip; the refusals once
    // (per address and minute), so a locked-out caller cannot flood the audit trail.
    const { value: received } = await eventually(() => events.received, (r) => r.length >= 11);
    await new Promise((r) => setTimeout(r, 300));
    events.stop();
    const parsed = received.map((e) => failedAuthEventSchema.parse(e));
    expect(parsed.every((e) => e.event === 'FAILED_AUTH' && e.email === 'victim@example.com' && e.ip === '203.0.113.7')).toBe(true);
    expect(parsed.filter((e) => e.reason === 'invalid_credentials')).toHaveLength(10);
    expect(parsed.filter((e) => e.reason === 'rate_limited')).toHaveLength(1);

    await new Promise((r) => setTimeout(r, (locked.retryAfterSeconds! + 0.2) * 1000));
    const session = await stack.call<Session>(subjects.auth.token, { grant_type: 'password', email: 'victim@example.com', password: TEST_PASSWORD });
    expect(session.user.email).toBe('victim@example.com');
  });

  it('answers an unknown account exactly like a known one, failures and lock alike', async () => {
    await userSession(stack, 'known@example.com');
    const known: string[] = [];
    const unknown: string[] = [];
    for (let i = 1; i <= 11; i++) {
      const k = await attempt('known@example.com', `bad-${i}-password`);
      const u = await attempt('ghost@example.com', `bad-${i}-password`);
      known.push(`${k.code}:${k.message}`);
      unknown.push(`${u.code}:${u.message}`);
    }
    expect(unknown).toEqual(known);
    expect(known[10]).toMatch(/^RATE_LIMITED:/);
  });

  it('keeps refused attempts out of the count, so an attacker cannot extend the lock', async () => {
    await userSession(stack, 'steady@example.com');
    for (let i = 1; i <= 10; i++) await attempt('steady@example.com', `nope-${i}-nope`);
    const first = await attempt('steady@example.com', 'nope-again');
    for (let i = 0; i < 5; i++) await attempt('steady@example.com', 'still-nope');
    const later = await attempt('steady@example.com', 'still-nope');
    expect(later.retryAfterSeconds!).toBeLessThanOrEqual(first.retryAfterSeconds!);
    const { rows } = await stack.db.query(`SELECT count(*)::int AS n FROM login_attempts WHERE email = 'steady@example.com' AND NOT succeeded`);
    expect(rows[0].n).toBe(10);
  });
});
