import { jest } from '@jest/globals';
import { subjects, type ChallengeReply, type ClientWithKey, type EnrollFactorReply, type Session, type VerifyFactorReply } from '@vigil/proto';
import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { adminSession, startAuthStack, tokenFromMail, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

/**
 * Runs every flow that handles a secret with the service at LOG_LEVEL=debug, then
 * greps everything it printed and everything it answered: a password never appears,
 * and a refresh token, API key, TOTP secret or recovery code appears only in the
 * one answer that hands it out.
 */
describe('no secret leaks into logs or later responses', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ ADMIN_EMAILS: 'keeper@vigil.dev' });
  });
  afterAll(() => stack?.stop());

  it('keeps passwords, refresh tokens, API keys, TOTP secrets and one-time links out of logs and later answers', async () => {
    const passwords = ['first-Passw0rd-kept-secret', 'wrong-guess-Passw0rd', 'second-Passw0rd-after-reset', 'admin-Passw0rd-very-secret'];
    const handedOut = new Map<string, number>(); // secret → index of the one answer allowed to carry it
    const handOut = (secret: string) => handedOut.set(secret, stack.transcript.length - 1);
    const email = 'careful@example.com';

    await stack.call(subjects.auth.signup, { full_name: 'Careful', email, password: passwords[0], confirm_password: passwords[0], accepted_terms: true });
    // Malformed requests carrying a password must not echo it back.
    await stack.fail(subjects.auth.signup, { full_name: 'Careful', email, password: passwords[0], confirm_password: passwords[1], accepted_terms: true });
    await stack.fail(subjects.auth.token, { grant_type: 'password', email: 'not-an-email', password: passwords[0] });

    const [confirmation] = await stack.waitForMail(email, 1);
    const confirmToken = tokenFromMail(confirmation!);
    const confirmed = await stack.call<Session>(subjects.auth.verify, { type: 'signup', token: confirmToken });
    handOut(confirmed.refresh_token);

    await stack.fail(subjects.auth.token, { grant_type: 'password', email, password: passwords[1] });
    const s1 = await stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password: passwords[0] });
    handOut(s1.refresh_token);
    const s2 = await stack.call<Session>(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: s1.refresh_token });
    handOut(s2.refresh_token);
    // s1 is a reuse (not a lost answer) once its successor has been used too.
    const s2b = await stack.call<Session>(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: s2.refresh_token });
    handOut(s2b.refresh_token);
    await stack.fail(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: s1.refresh_token });

    // MFA: the secret is answered at enrolment only; recovery codes at first verification only.
    const s3 = await stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password: passwords[0] });
    handOut(s3.refresh_token);
    const enrolled = await stack.call<EnrollFactorReply>(subjects.auth.enrollFactor, { accessToken: s3.access_token });
    handOut(enrolled.totp.secret);
    const challenge = await stack.call<ChallengeReply>(subjects.auth.challengeFactor, { accessToken: s3.access_token, factor_id: enrolled.id });
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.totp.secret) }).generate();
    const verified = await stack.call<VerifyFactorReply>(subjects.auth.verifyFactor, { accessToken: s3.access_token, factor_id: enrolled.id, challenge_id: challenge.id, code });
    handOut(verified.refresh_token);
    for (const recovery of verified.recovery_codes!) handOut(recovery);
    await stack.call(subjects.auth.getUser, { accessToken: verified.access_token });
    await stack.call(subjects.auth.listSessions, { accessToken: verified.access_token });

    // Password reset: the link token and the new password.
    await stack.call(subjects.auth.recover, { email });
    const mails = await stack.waitForMail(email, 2);
    const resetToken = tokenFromMail(mails.find((m) => m.subject.startsWith('Reset'))!);
    await stack.call(subjects.auth.verify, { type: 'recovery', token: resetToken, password: passwords[2] });
    await stack.fail(subjects.auth.verify, { type: 'recovery', token: resetToken, password: passwords[2] });

    // API keys: shown at creation and regeneration, never after.
    const admin = await adminSession(stack, 'keeper@vigil.dev', passwords[3]);
    handOut(admin.refresh_token);
    const client = await stack.call<ClientWithKey>(subjects.clients.create, { accessToken: admin.access_token, clientName: 'Careful Co', tier: 'small' });
    handOut(client.api_key);
    const regenerated = await stack.call<ClientWithKey>(subjects.clients.regenerateKey, { accessToken: admin.access_token, clientId: client.id });
    handOut(regenerated.api_key);
    await stack.call(subjects.clients.findByKey, { accessToken: admin.access_token, apiKey: regenerated.api_key });
    await stack.fail(subjects.clients.findByKey, { accessToken: admin.access_token, apiKey: client.api_key });
    await stack.call(subjects.clients.resolveKey, { keyHash: createHash('sha256').update(regenerated.api_key).digest('hex') });
    await stack.call(subjects.clients.list, { accessToken: admin.access_token });
    await stack.call(subjects.clients.keyStatus, { accessToken: admin.access_token, clientId: client.id });

    // Give the asynchronous recovery mail's log line time to land.
    await new Promise((r) => setTimeout(r, 200));
    const logs = stack.logs();
    expect(logs.length).toBeGreaterThan(0);
    // The grep saw the service's own lines about these flows, not just its start-up banner.
    expect(logs).toContain('mail \\"Reset your Vigil password\\" sent');

    for (const password of passwords) {
      expect(logs).not.toContain(password);
      stack.transcript.forEach((entry) => expect(entry).not.toContain(password));
    }
    for (const token of [confirmToken, resetToken]) {
      expect(logs).not.toContain(token);
      stack.transcript.forEach((entry) => expect(entry).not.toContain(token));
    }
    for (const [secret, allowedAt] of handedOut) {
      expect(logs).not.toContain(secret);
      const carriers = stack.transcript.flatMap((entry, index) => (entry.includes(secret) ? [index] : []));
      expect(carriers).toEqual([allowedAt]);
    }
    // And no answer ever carries a stored hash.
    stack.transcript.forEach((entry) => expect(entry).not.toMatch(/_hash|\$argon2/));
  });
});
