import { jest } from '@jest/globals';
import { UNLOCK_MESSAGE, subjects, type MailboxMessage, type MessageReply, type Session } from '@vigil/proto';
import { TEST_PASSWORD, eventually, startAuthStack, tokenFromMail, userSession, type AuthStack } from './harness.js';

jest.setTimeout(90_000);

/** Low enough to reach in a test: two addresses' worth of guesses lock the account everywhere. */
const PER_ACCOUNT = 20;

/**
 * Issue #33, "one lockout for everyone": the limits are per account AND per client address, so
 * guesses from one address cannot lock the owner out from another; only guesses from many
 * addresses lock the account itself, and then the emailed link gets its owner back in, however
 * often it is locked again.
 */
describe('sign-in limits per account and per client address', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ LOGIN_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT) });
  });
  afterAll(() => stack?.stop());

  const grant = (email: string, password: string, ip: string) =>
    stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password, ip }).then(
      () => 'OK',
      (error: { code?: string }) => error.code ?? String(error),
    );
  const guesses = async (email: string, ip: string, count: number) => {
    const answers: string[] = [];
    for (let i = 0; i < count; i++) answers.push(await grant(email, `guess-${ip}-${i}`, ip));
    return answers;
  };
  const unlockMails = async (email: string) =>
    (await stack.mailbox(email)).filter((m) => /locked/i.test(m.subject));
  const waitForUnlockMails = (email: string, count: number) =>
    eventually(
      () => unlockMails(email),
      (list) => list.length >= count,
      5_000,
    ).then(({ value }) => value);
  const useLink = (mail: MailboxMessage) =>
    stack.call<MessageReply>(subjects.auth.verify, { type: 'unlock', token: tokenFromMail(mail), ip: '192.0.2.10' });

  it('locks one address out of an account while the right password from another address still works', async () => {
    await userSession(stack, 'busy@example.com');
    expect(await guesses('busy@example.com', '203.0.113.66', 10)).toEqual(Array(10).fill('INVALID_CREDENTIALS'));
    // The guessing address is locked out of this account, the right password included…
    expect(await grant('busy@example.com', TEST_PASSWORD, '203.0.113.66')).toBe('RATE_LIMITED');
    // …and the owner, anywhere else, signs in.
    expect(await grant('busy@example.com', TEST_PASSWORD, '192.0.2.10')).toBe('OK');
    // The owner signing in does not give the guessing address its allowance back.
    expect(await grant('busy@example.com', 'one-more-guess', '203.0.113.66')).toBe('RATE_LIMITED');
  });

  it('locks the account everywhere only when many addresses guess, counting each guess once', async () => {
    await userSession(stack, 'spread@example.com');
    expect(await guesses('spread@example.com', '203.0.113.1', 10)).toEqual(Array(10).fill('INVALID_CREDENTIALS'));
    // A second address still has its own allowance: its guesses are checked.
    expect(await guesses('spread@example.com', '203.0.113.2', 10)).toEqual(Array(10).fill('INVALID_CREDENTIALS'));
    // PER_ACCOUNT failures in the window: now the account is locked for every address.
    expect(await grant('spread@example.com', 'third-address-guess', '203.0.113.3')).toBe('RATE_LIMITED');
    expect(await grant('spread@example.com', TEST_PASSWORD, '192.0.2.10')).toBe('RATE_LIMITED');
  });

  it('counts an IPv6 client by its /64, so a new address from the same network is no new allowance', async () => {
    await userSession(stack, 'six@example.com');
    for (let i = 0; i < 10; i++) await grant('six@example.com', `guess-v6-${i}`, `2001:db8:66:1::${(i + 1).toString(16)}`);
    expect(await grant('six@example.com', 'fresh-address-guess', '2001:db8:66:1::ffff')).toBe('RATE_LIMITED');
    expect(await grant('six@example.com', TEST_PASSWORD, '2001:db8:66:2::1')).toBe('OK');
  });

  it('keeps an unlock link for the owner however often the account is locked again', async () => {
    const email = 'relocked@example.com';
    await userSession(stack, email);
    await guesses(email, '203.0.113.21', 10);
    await guesses(email, '203.0.113.22', 10);
    expect(await grant(email, TEST_PASSWORD, '192.0.2.10')).toBe('RATE_LIMITED');
    const [first] = await waitForUnlockMails(email, 1);
    expect(await useLink(first!)).toEqual({ message: UNLOCK_MESSAGE });
    expect(await grant(email, TEST_PASSWORD, '192.0.2.10')).toBe('OK');

    // Locked again at once, from fresh addresses: the used link is spent, so the owner needs a new one.
    await guesses(email, '203.0.113.23', 10);
    await guesses(email, '203.0.113.24', 10);
    expect(await grant(email, TEST_PASSWORD, '192.0.2.10')).toBe('RATE_LIMITED');
    const mails = await waitForUnlockMails(email, 2);
    const second = mails.find((m) => tokenFromMail(m) !== tokenFromMail(first!))!;
    expect(await useLink(second)).toEqual({ message: UNLOCK_MESSAGE });
    expect(await grant(email, TEST_PASSWORD, '192.0.2.10')).toBe('OK');

    // Refused attempts while a link is waiting unused still send no more mail.
    await guesses(email, '203.0.113.25', 10);
    await guesses(email, '203.0.113.26', 10);
    expect(await grant(email, 'yet-another-guess', '203.0.113.27')).toBe('RATE_LIMITED');
    await waitForUnlockMails(email, 3);
    expect(await grant(email, 'yet-another-guess', '203.0.113.27')).toBe('RATE_LIMITED');
    await new Promise((r) => setTimeout(r, 500));
    expect(await unlockMails(email)).toHaveLength(3);
  });
});
