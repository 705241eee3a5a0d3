import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type { ChallengeReply, EnrollFactorReply, User, VerifyFactorReply, VerifyFactorRequest } from '@vigil/proto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { normaliseCode, readableCode, sha256 } from '../crypto/secrets.js';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { SecretBox } from '../crypto/secret-box.js';
import { EventsPublisher } from '../events/events.publisher.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { SessionsService, type Principal } from '../sessions/sessions.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { MfaRepository } from './mfa.repository.js';

const PERIOD_SECONDS = 30;
const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_MAX_FAILURES = 5;
const RECOVERY_CODE_COUNT = 10;

@Injectable()
export class MfaService {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly mfa: MfaRepository,
    private readonly sessions: SessionsService,
    private readonly sessionsRepository: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly events: EventsPublisher,
    private readonly box: SecretBox,
  ) {}

  /** The only answer that carries the secret; afterwards the factor is known by id alone. */
  async enroll(principal: Principal, friendlyName: string | undefined): Promise<EnrollFactorReply> {
    const secret = new Secret({ size: 20 });
    const factor = await this.mfa.createFactor(principal.userId, this.box.seal(secret.base32), friendlyName ?? null);
    const uri = this.totp(secret.base32, principal.email).toString();
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    return {
      id: factor.id,
      type: 'totp',
      friendly_name: factor.friendly_name,
      totp: { uri, secret: secret.base32, qr_code: `data:image/svg+xml;utf-8,${encodeURIComponent(svg)}` },
    };
  }

  async challenge(principal: Principal, factorId: string): Promise<ChallengeReply> {
    if (!(await this.mfa.findFactor(principal.userId, factorId))) throw new DomainError('NOT_FOUND', 'No such factor.');
    const challenge = await this.mfa.createChallenge(
      factorId,
      principal.sessionId,
      new Date(Date.now() + CHALLENGE_TTL_MS),
    );
    return { id: challenge.id, expires_at: Math.floor(challenge.expires_at.getTime() / 1000) };
  }

  async verify(principal: Principal, request: VerifyFactorRequest, ip?: string): Promise<VerifyFactorReply> {
    const factor = await this.mfa.findFactor(principal.userId, request.factor_id);
    if (!factor) throw new DomainError('NOT_FOUND', 'No such factor.');
    if (!(await this.mfa.openChallenge(request.challenge_id, factor.id, principal.sessionId, CHALLENGE_MAX_FAILURES))) {
      throw new DomainError('INVALID_MFA_CODE', 'This challenge has expired or was already used. Start a new one.');
    }

    const accepted =
      request.code !== undefined
        ? await this.acceptTotp(factor.id, this.box.open(factor.secret), principal.email, request.code)
        : await this.acceptRecovery(principal.userId, factor.status, request.recovery_code!);
    if (!accepted) {
      await this.mfa.recordChallengeFailure(request.challenge_id);
      await this.events.failedAuth({
        email: principal.email,
        user_id: principal.userId,
        ip: ip ?? null,
        user_agent: null,
        reason: 'invalid_mfa_code',
        endpoint: 'factors/verify',
      });
      throw new DomainError('INVALID_MFA_CODE', 'Invalid or already used verification code.');
    }
    if (!(await this.mfa.closeChallenge(request.challenge_id)))
      throw new DomainError('INVALID_MFA_CODE', 'This challenge was already used.');

    let recoveryCodes: string[] | undefined;
    if (factor.status === 'unverified') {
      await this.mfa.markVerified(factor.id);
      recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => readableCode(4));
      await this.mfa.replaceRecoveryCodes(
        principal.userId,
        recoveryCodes.map((c) => sha256(normaliseCode(c))),
      );
    }
    await this.sessionsRepository.raiseToAal2(
      principal.sessionId,
      request.code !== undefined ? 'totp' : 'recovery_code',
    );
    const session = await this.sessions.reissue(principal.sessionId);
    return recoveryCodes ? { ...session, recovery_codes: recoveryCodes } : session;
  }

  /**
   * A verified authenticator made here, for a development stack's seeded admin (every admin route
   * needs aal2): its secret is printed by `npm start` so the demo admin can sign in with a code.
   */
  async enrollVerified(userId: string, email: string, friendlyName: string): Promise<{ secret: string; uri: string }> {
    const secret = new Secret({ size: 20 });
    const factor = await this.mfa.createFactor(userId, this.box.seal(secret.base32), friendlyName);
    await this.mfa.markVerified(factor.id);
    return { secret: secret.base32, uri: this.totp(secret.base32, email).toString() };
  }

  async unenroll(principal: Principal, factorId: string): Promise<User> {
    // Every admin route needs aal2: an admin keeps at least one verified factor, or the next
    // password-only sign-in would be offered enrolment again, to whoever holds the password.
    if (principal.role === 'admin') {
      const factor = await this.mfa.findFactor(principal.userId, factorId);
      if (factor?.status === 'verified' && (await this.mfa.countVerified(principal.userId)) <= 1) {
        throw new DomainError(
          'FORBIDDEN',
          'An administrator keeps at least one verified authenticator; add another first.',
        );
      }
    }
    if (!(await this.mfa.deleteFactor(principal.userId, factorId)))
      throw new DomainError('NOT_FOUND', 'No such factor.');
    if ((await this.mfa.countVerified(principal.userId)) === 0) await this.mfa.deleteRecoveryCodes(principal.userId);
    return this.users.view(principal.userId);
  }

  /**
   * The verified factor and time step a code belongs to, without using the code up: sign-in past a
   * lock checks the password next and spends the code (`spendCode`) only if that is right too.
   */
  async matchCode(
    userId: string,
    email: string,
    code: string,
  ): Promise<{ factorId: string; step: number } | undefined> {
    for (const factor of await this.mfa.verifiedFactors(userId)) {
      const delta = this.totp(this.box.open(factor.secret), email).validate({ token: code, window: 1 });
      if (delta !== null) return { factorId: factor.id, step: Math.floor(Date.now() / 1000 / PERIOD_SECONDS) + delta };
    }
    return undefined;
  }

  /** False if this step's code was already used. */
  spendCode(match: { factorId: string; step: number }): Promise<boolean> {
    return this.mfa.useTimeStep(match.factorId, match.step);
  }

  /** A code is accepted in the current step or one either side, and each step's code only once. */
  private async acceptTotp(factorId: string, secret: string, email: string, code: string): Promise<boolean> {
    const delta = this.totp(secret, email).validate({ token: code, window: 1 });
    if (delta === null) return false;
    const step = Math.floor(Date.now() / 1000 / PERIOD_SECONDS) + delta;
    return this.mfa.useTimeStep(factorId, step);
  }

  private async acceptRecovery(userId: string, factorStatus: string, code: string): Promise<boolean> {
    // Recovery codes stand in for a working factor; they cannot complete an enrolment.
    if (factorStatus !== 'verified') return false;
    return this.mfa.useRecoveryCode(userId, sha256(normaliseCode(code)));
  }

  private totp(secret: string, email: string): TOTP {
    return new TOTP({
      issuer: this.config.MFA_ISSUER,
      label: email,
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD_SECONDS,
      secret: Secret.fromBase32(secret),
    });
  }
}
