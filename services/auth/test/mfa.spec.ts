import { jest } from '@jest/globals';
import { enrollFactorReplySchema, subjects, type ChallengeReply, type EnrollFactorReply, type Session, type User, type VerifyFactorReply } from '@vigil/proto';
import { Secret, TOTP } from 'otpauth';
import { TEST_PASSWORD, claimsOf, startAuthStack, userSession, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

describe('TOTP multi-factor authentication', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack();
  });
  afterAll(() => stack?.stop());

  const totpFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const signIn = () => stack.call<Session>(subjects.auth.token, { grant_type: 'password', email: 'mfa@example.com', password: TEST_PASSWORD });

  async function challengeAndVerify(session: Session, factorId: string, proof: { code?: string; recovery_code?: string }) {
    const challenge = await stack.call<ChallengeReply>(subjects.auth.challengeFactor, { accessToken: session.access_token, factor_id: factorId });
    return { challenge, verify: () => stack.call<VerifyFactorReply>(subjects.auth.verifyFactor, { accessToken: session.access_token, factor_id: factorId, challenge_id: challenge.id, ...proof }) };
  }

  it('enrols, verifies to aal2, uses each code once, enforces aal2 on later sign-ins, and accepts a recovery code once', async () => {
    const first = await userSession(stack, 'mfa@example.com');
    const enrolled = enrollFactorReplySchema.parse(
      await stack.call<EnrollFactorReply>(subjects.auth.enrollFactor, { accessToken: first.access_token, friendly_name: 'Phone' }),
    );
    expect(enrolled.totp.uri).toMatch(/^otpauth:\/\/totp\/Vigil:mfa%40example\.com\?/);
    expect(enrolled.totp.uri).toContain(`secret=${enrolled.totp.secret}`);
    expect(enrolled.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,/);
    expect(decodeURIComponent(enrolled.totp.qr_code)).toContain('<svg');

    const user = await stack.call<User>(subjects.auth.getUser, { accessToken: first.access_token });
    expect(user.factors).toEqual([expect.objectContaining({ id: enrolled.id, factor_type: 'totp', status: 'unverified', friendly_name: 'Phone' })]);
    expect(JSON.stringify(user)).not.toContain(enrolled.totp.secret);

    const totp = totpFor(enrolled.totp.secret);
    const code = totp.generate();
    const wrong = await challengeAndVerify(first, enrolled.id, { code: code === '000000' ? '111111' : '000000' });
    expect((await stack.fail(subjects.auth.verifyFactor, { accessToken: first.access_token, factor_id: enrolled.id, challenge_id: wrong.challenge.id, code: code === '000000' ? '111111' : '000000' })).code).toBe('INVALID_MFA_CODE');

    const { verify } = await challengeAndVerify(first, enrolled.id, { code });
    const raised = await verify();
    expect(claimsOf(raised.access_token).aal).toBe('aal2');
    expect(raised.user.factors[0]!.status).toBe('verified');
    expect(raised.recovery_codes).toHaveLength(10);
    const recoveryCodes = raised.recovery_codes!;

    // The same code, on a fresh challenge, is refused: each TOTP code works once.
    const replay = await challengeAndVerify(raised, enrolled.id, { code });
    expect((await stack.fail(subjects.auth.verifyFactor, { accessToken: raised.access_token, factor_id: enrolled.id, challenge_id: replay.challenge.id, code })).code).toBe('INVALID_MFA_CODE');

    // A new sign-in is aal1 and may not use the account until the second factor is done.
    const later = await signIn();
    expect(claimsOf(later.access_token).aal).toBe('aal1');
    expect((await stack.fail(subjects.auth.listSessions, { accessToken: later.access_token })).code).toBe('MFA_REQUIRED');
    await expect(stack.call<User>(subjects.auth.getUser, { accessToken: later.access_token })).resolves.toMatchObject({ factors: [expect.objectContaining({ status: 'verified' })] });

    // The next time step's code is a different code and works once.
    const nextCode = totp.generate({ timestamp: Date.now() + 30_000 });
    const second = await challengeAndVerify(later, enrolled.id, { code: nextCode });
    const laterAal2 = await second.verify();
    expect(claimsOf(laterAal2.access_token).aal).toBe('aal2');
    expect(laterAal2.recovery_codes).toBeUndefined();
    await expect(stack.call(subjects.auth.listSessions, { accessToken: laterAal2.access_token })).resolves.toBeTruthy();

    // A recovery code stands in for the app, once.
    const third = await signIn();
    const byRecovery = await challengeAndVerify(third, enrolled.id, { recovery_code: recoveryCodes[0]!.toLowerCase() });
    expect(claimsOf((await byRecovery.verify()).access_token).amr).toContain('recovery_code');
    const fourth = await signIn();
    const reused = await challengeAndVerify(fourth, enrolled.id, { recovery_code: recoveryCodes[0]! });
    expect((await stack.fail(subjects.auth.verifyFactor, { accessToken: fourth.access_token, factor_id: enrolled.id, challenge_id: reused.challenge.id, recovery_code: recoveryCodes[0]! })).code).toBe('INVALID_MFA_CODE');

    // Stored secrets: the TOTP seed sealed, the signing key's private half sealed, recovery codes only as hashes.
    const factorRow = await stack.db.query(`SELECT secret FROM mfa_factors WHERE id = $1`, [enrolled.id]);
    expect(factorRow.rows[0].secret).toMatch(/^enc:v1:/);
    expect(factorRow.rows[0].secret).not.toContain(enrolled.totp.secret);
    const keyRow = await stack.db.query(`SELECT private_jwk FROM signing_keys`);
    expect(Object.keys(keyRow.rows[0].private_jwk)).toEqual(['sealed']);
    const { rows } = await stack.db.query(`SELECT code_hash FROM mfa_recovery_codes`);
    expect(rows).toHaveLength(10);
    expect(JSON.stringify(rows)).not.toContain(recoveryCodes[1]!);
  });

  it('kills a challenge after five wrong codes', async () => {
    const session = await userSession(stack, 'walker@example.com');
    const enrolled = await stack.call<EnrollFactorReply>(subjects.auth.enrollFactor, { accessToken: session.access_token });
    const challenge = await stack.call<ChallengeReply>(subjects.auth.challengeFactor, { accessToken: session.access_token, factor_id: enrolled.id });
    const good = totpFor(enrolled.totp.secret).generate();
    const bad = String((Number(good) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      await stack.fail(subjects.auth.verifyFactor, { accessToken: session.access_token, factor_id: enrolled.id, challenge_id: challenge.id, code: bad });
    }
    const error = await stack.fail(subjects.auth.verifyFactor, { accessToken: session.access_token, factor_id: enrolled.id, challenge_id: challenge.id, code: good });
    expect(error.message).toMatch(/expired or was already used/);
  });
});
