import { Inject, Injectable, Logger } from '@nestjs/common';
import { Database, DomainError } from '@vigil/platform';
import {
  ADMIN_SIGNUP_MESSAGE,
  RECOVER_MESSAGE,
  RESEND_MESSAGE,
  SIGNUP_MESSAGE,
  UNLOCK_MESSAGE,
  type MessageReply,
  type PasswordGrant,
  type Session,
  type SignupReply,
  type SignupRequest,
  type UpdateUserRequest,
  type User,
  type VerifyRequest,
} from '@vigil/proto';
import { PasswordHasher } from '../crypto/password-hasher.js';
import { randomToken, sha256 } from '../crypto/secrets.js';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { EventsPublisher } from '../events/events.publisher.js';
import { InvitationsService } from '../invitations/invitations.service.js';
import { LoginLimiter, SignInLocked } from '../limiter/login-limiter.service.js';
import { accountExistsMail, confirmationMail, recoveryMail, unlockMail } from '../mail/mail.templates.js';
import { MailThrottleRepository } from '../mail/mail-throttle.repository.js';
import { Mailer } from '../mail/mailer.service.js';
import { MfaService } from '../mfa/mfa.service.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { SessionsService, type Principal } from '../sessions/sessions.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { OneTimeTokensRepository } from './one-time-tokens.repository.js';

const CONFIRMATION_TTL_MS = 24 * 3_600_000;
const RECOVERY_TTL_MS = 3_600_000;
const RECOVERY_MAIL_INTERVAL_SECONDS = 60;
/** A new confirmation link at most once a minute per account, so resending cannot flood an inbox. */
const RESEND_MAIL_INTERVAL_SECONDS = 60;
/** Resend requests from one IP, whatever the address: a fixed pause, the same for every answer. */
const RESEND_IP_INTERVAL_SECONDS = 5;
const UNLOCK_TTL_MS = 3_600_000;
/** A locked-out address's refused sign-ins reach the audit trail once a minute, however many it sends. */
const REFUSED_SIGN_IN_EVENT_INTERVAL_SECONDS = 60;
/** "Someone tried to sign up with your email": once an hour per address, however often it is tried. */
const ACCOUNT_EXISTS_MAIL_INTERVAL_SECONDS = 3600;

export const INVITATION_REQUIRED_MESSAGE = 'Invitation Required: Admin accounts need a valid invitation code.';
export const INVALID_INVITATION_MESSAGE = 'Invalid Invitation: The invitation code is invalid or expired.';

@Injectable()
export class AuthService {
  private readonly logger = new Logger('AuthService');

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly oneTimeTokens: OneTimeTokensRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly sessionsRepository: SessionsRepository,
    private readonly limiter: LoginLimiter,
    private readonly invitations: InvitationsService,
    private readonly mailer: Mailer,
    private readonly events: EventsPublisher,
    private readonly mfa: MfaService,
    private readonly mailThrottle: MailThrottleRepository,
  ) {}

  async signup(request: SignupRequest): Promise<SignupReply> {
    this.assertNotCommon(request.password);
    if (this.invitations.isAdminDomain(request.email)) return this.adminSignup(request);
    // An allow-listed address elsewhere becomes an admin only with a valid code; any other outcome is
    // an ordinary sign-up, so the answer does not tell a stranger the address is on the list.
    if (request.invitation_code && this.invitations.isApproved(request.email)) {
      const passwordHash = await this.passwords.hash(request.password);
      if (await this.createAdmin(request, request.invitation_code, passwordHash)) return { message: ADMIN_SIGNUP_MESSAGE, admin: true };
    }

    // A normal sign-up never yields the admin role, whatever else the request carries.
    const user = await this.users.create({
      email: request.email,
      fullName: request.full_name,
      passwordHash: await this.passwords.hash(request.password),
      role: 'user',
      confirmed: false,
    });
    if (user) {
      await this.users.addIdentity(user.id, 'email', user.id, user.email);
      await this.sendConfirmation(user.id, user.email, user.full_name);
    } else if (await this.mailThrottle.claim(`account-exists:${request.email}`, ACCOUNT_EXISTS_MAIL_INTERVAL_SECONDS)) {
      // Same answer as a new account, so sign-up does not reveal who has one; the owner hears of it,
      // once in a while, so the form cannot be used to flood their inbox.
      await this.mailer.send(accountExistsMail(request.email, `${this.config.WEB_URL}/login`, `${this.config.WEB_URL}/forgot-password`));
    }
    return { message: SIGNUP_MESSAGE, admin: false };
  }

  /**
   * The company domain's sign-up. Both checks on the server: the address is allow-listed AND a valid
   * invitation code is used up. One answer for every failure with a code (not on the list, wrong or
   * spent code, an account already there), so the form does not reveal the allow-list or which
   * admins exist; without a code, the same question for every address of the domain.
   */
  private async adminSignup(request: SignupRequest): Promise<SignupReply> {
    if (!request.invitation_code) throw new DomainError('INVITATION_REQUIRED', INVITATION_REQUIRED_MESSAGE);
    const passwordHash = await this.passwords.hash(request.password);
    if (!(await this.createAdmin(request, request.invitation_code, passwordHash))) throw new DomainError('INVALID_INVITATION', INVALID_INVITATION_MESSAGE);
    return { message: ADMIN_SIGNUP_MESSAGE, admin: true };
  }

  /** Creates the admin and uses up the code in one transaction; false (and nothing changed) on any failure. */
  private async createAdmin(request: SignupRequest, code: string, passwordHash: string): Promise<boolean> {
    if (!this.invitations.isApproved(request.email)) return false;
    const refused = new Error('admin sign-up refused');
    try {
      await this.db.transaction(async (tx) => {
        const user = await this.users.create({ email: request.email, fullName: request.full_name, passwordHash, role: 'admin', confirmed: true }, tx);
        if (!user) throw refused;
        // Consumed in the same transaction as the user is created: a bad code rolls the user back.
        if (!(await this.invitations.consume(code, user.id, tx))) throw refused;
        await this.users.addIdentity(user.id, 'email', user.id, user.email, tx);
      });
      return true;
    } catch (error) {
      if (error === refused) return false;
      throw error;
    }
  }

  async signInWithPassword(request: PasswordGrant): Promise<Session> {
    const endpoint = 'token?grant_type=password';
    let attemptId: string;
    try {
      // Counted before the password is checked: parallel guesses are refused past the limit unevaluated.
      attemptId = await this.limiter.claim(request.email, request.ip);
    } catch (error) {
      // A lock must not lock the owner out: the right password with a current TOTP code still gets in.
      const session = request.mfa_code && error instanceof DomainError && error.code === 'RATE_LIMITED' ? await this.signInPastLock(request, request.mfa_code) : undefined;
      if (session) return session;
      // Or the owner's inbox: a locked email gets an unlock link (one unused link at a time), sent after the answer.
      if (error instanceof SignInLocked && error.lockedBy !== 'ip') this.later('unlock mail', () => this.sendUnlock(request.email));
      // Refused attempts cost nothing to send: the audit trail hears of them once a minute per address, not per attempt.
      if (await this.mailThrottle.claim(`failed-auth-refused:${request.ip ?? '-'}`, REFUSED_SIGN_IN_EVENT_INTERVAL_SECONDS)) {
        await this.events.failedAuth({ email: request.email, ip: request.ip ?? null, user_agent: request.userAgent ?? null, reason: 'rate_limited', endpoint });
      }
      throw error;
    }
    const user = await this.users.findByEmail(request.email);
    const valid = user?.password_hash ? await this.passwords.verify(user.password_hash, request.password) : await this.passwords.burn(request.password);
    if (!user || !valid) {
      await this.events.failedAuth({
        email: request.email,
        user_id: user?.id ?? null,
        ip: request.ip ?? null,
        user_agent: request.userAgent ?? null,
        reason: 'invalid_credentials',
        endpoint,
      });
      throw new DomainError('INVALID_CREDENTIALS', 'Invalid login credentials');
    }
    await this.limiter.succeeded(attemptId);
    if (!user.email_confirmed_at) throw new DomainError('EMAIL_NOT_CONFIRMED', 'Email not confirmed. Please check your email for the confirmation link.');
    return this.sessions.start(user, { amr: ['password'], rememberMe: request.remember_me ?? false, ip: request.ip, userAgent: request.userAgent });
  }

  /**
   * A locked account's owner: a verified TOTP factor's current code is checked first, so an
   * attacker without it never gets a password evaluated; then the password; the code is spent
   * only when both are right. These attempts have their own allowance per email and IP and do
   * not lift the password lock. Undefined (the caller answers as for the lock) on any failure.
   */
  private async signInPastLock(request: PasswordGrant, code: string): Promise<Session | undefined> {
    const attemptId = await this.limiter.claimPastLock(request.email, request.ip).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'RATE_LIMITED') return undefined;
      throw error;
    });
    if (!attemptId) return undefined;
    const user = await this.users.findByEmail(request.email);
    if (!user?.password_hash || !user.email_confirmed_at) return undefined;
    const match = await this.mfa.matchCode(user.id, user.email, code);
    if (!match) {
      await this.events.failedAuth({ email: request.email, user_id: user.id, ip: request.ip ?? null, user_agent: request.userAgent ?? null, reason: 'invalid_mfa_code', endpoint: 'token?grant_type=password' });
      return undefined;
    }
    if (!(await this.passwords.verify(user.password_hash, request.password))) return undefined;
    if (!(await this.mfa.spendCode(match))) return undefined;
    await this.limiter.succeeded(attemptId);
    return this.sessions.start(user, { amr: ['password', 'totp'], aal: 'aal2', rememberMe: request.remember_me ?? false, ip: request.ip, userAgent: request.userAgent });
  }

  /**
   * Always the same answer, at the same speed: the lookup and the mail happen
   * after the reply, so neither the words nor the timing say whether the
   * account exists.
   */
  recover(email: string): MessageReply {
    setImmediate(() => {
      this.sendRecovery(email).catch((error: unknown) =>
        this.logger.error(`password recovery mail failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
    return { message: RECOVER_MESSAGE };
  }

  /**
   * A new confirmation link (POST /auth/v1/resend). The same answer for every address, sent or not;
   * the lookup and the mail happen after the reply. Limited per IP (an answer, the same for all
   * addresses) and per account (silently: a second link within a minute is not sent).
   */
  async resend(email: string, ip: string | undefined): Promise<MessageReply> {
    if (ip && !(await this.mailThrottle.claim(`resend-ip:${ip}`, RESEND_IP_INTERVAL_SECONDS))) {
      throw new DomainError('RATE_LIMITED', 'Please wait a few seconds before asking for another link.', undefined, RESEND_IP_INTERVAL_SECONDS);
    }
    this.later('confirmation resend', () => this.resendConfirmation(email));
    return { message: RESEND_MESSAGE };
  }

  async verify(request: VerifyRequest): Promise<Session | MessageReply> {
    const invalid = () => new DomainError('INVALID_LINK', 'This link is invalid or has expired. Please request a new one.');
    if (request.type === 'unlock') {
      const userId = await this.oneTimeTokens.consume('unlock', sha256(request.token));
      if (!userId) throw invalid();
      const user = (await this.users.findById(userId))!;
      await this.limiter.unlock(user.email);
      return { message: UNLOCK_MESSAGE };
    }
    if (request.type === 'signup') {
      const userId = await this.oneTimeTokens.consume('signup', sha256(request.token));
      if (!userId) throw invalid();
      await this.users.confirmEmail(userId);
      const user = (await this.users.findById(userId))!;
      return this.sessions.start(user, { amr: ['email'], rememberMe: false, ip: request.ip, userAgent: request.userAgent });
    }
    // Checked before the link is used, so a rejected password does not burn the link.
    this.assertNotCommon(request.password);
    const passwordHash = await this.passwords.hash(request.password);
    const revoked = await this.db.transaction(async (tx) => {
      const userId = await this.oneTimeTokens.consume('recovery', sha256(request.token), tx);
      if (!userId) throw invalid();
      await this.users.setPassword(userId, passwordHash, tx);
      // Whoever reset the password proved they read the inbox.
      await this.users.confirmEmail(userId, tx);
      return this.sessionsRepository.revokeAllForUser(userId, 'password_reset', undefined, tx);
    });
    await this.sessions.announce(revoked, 'password_reset');
    return { message: 'Your password has been reset. You can now sign in.' };
  }

  getUser(principal: Principal): Promise<User> {
    return this.users.view(principal.userId);
  }

  async updateUser(principal: Principal, request: UpdateUserRequest): Promise<User> {
    if (request.password !== undefined) {
      const user = (await this.users.findById(principal.userId))!;
      if (user.password_hash) {
        const ok = request.current_password !== undefined && (await this.passwords.verify(user.password_hash, request.current_password));
        if (!ok) throw new DomainError('VALIDATION_FAILED', 'Your current password is not correct.', [{ pointer: '/current_password', detail: 'Your current password is not correct.' }]);
      }
      this.assertNotCommon(request.password);
      await this.users.setPassword(principal.userId, await this.passwords.hash(request.password));
      await this.sessions.logout(principal, 'others');
    }
    if (request.full_name !== undefined) await this.users.setFullName(principal.userId, request.full_name);
    return this.users.view(principal.userId);
  }

  async unlinkIdentity(principal: Principal, identityId: string): Promise<User> {
    const user = (await this.users.findById(principal.userId))!;
    if (!user.password_hash && (await this.users.countIdentities(user.id)) <= 1) {
      throw new DomainError('CONFLICT', 'This is your only way to sign in; set a password before unlinking it.');
    }
    if (!(await this.users.deleteIdentity(user.id, identityId))) throw new DomainError('NOT_FOUND', 'No such identity.');
    return this.users.view(user.id);
  }

  private assertNotCommon(password: string) {
    if (this.passwords.isCommon(password)) {
      const detail = 'This password is too common. Please choose a different one.';
      throw new DomainError('VALIDATION_FAILED', detail, [{ pointer: '/password', detail }]);
    }
  }

  private async sendConfirmation(userId: string, email: string, name: string | null) {
    const token = randomToken();
    await this.oneTimeTokens.create(userId, 'signup', sha256(token), new Date(Date.now() + CONFIRMATION_TTL_MS));
    await this.mailer.send(confirmationMail(email, name, `${this.config.WEB_URL}/login?type=signup&token=${token}`));
  }

  private later(what: string, work: () => Promise<void>) {
    setImmediate(() => {
      work().catch((error: unknown) => this.logger.error(`${what} failed: ${error instanceof Error ? error.message : String(error)}`));
    });
  }

  private async resendConfirmation(email: string) {
    const user = await this.users.findByEmail(email);
    if (!user || user.email_confirmed_at) return;
    const token = randomToken();
    const issued = await this.oneTimeTokens.create(user.id, 'signup', sha256(token), new Date(Date.now() + CONFIRMATION_TTL_MS), {
      minIntervalSeconds: RESEND_MAIL_INTERVAL_SECONDS,
    });
    if (!issued) return;
    await this.mailer.send(confirmationMail(user.email, user.full_name, `${this.config.WEB_URL}/login?type=signup&token=${token}`));
  }

  private async sendUnlock(email: string) {
    const user = await this.users.findByEmail(email);
    if (!user?.password_hash || !user.email_confirmed_at) return;
    const token = randomToken();
    // One unused link per lock window: locking an account again and again does not flood its
    // owner, yet an account locked again after its owner used the link gets a new one (issue #33).
    const issued = await this.oneTimeTokens.create(user.id, 'unlock', sha256(token), new Date(Date.now() + UNLOCK_TTL_MS), {
      minIntervalSeconds: this.config.LOGIN_WINDOW_SECONDS,
      onlyWhileUnused: true,
    });
    if (!issued) return;
    await this.mailer.send(unlockMail(user.email, `${this.config.WEB_URL}/login?type=unlock&token=${token}`, Math.ceil(this.config.LOGIN_WINDOW_SECONDS / 60)));
  }

  private async sendRecovery(email: string) {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const token = randomToken();
    // One reset mail a minute per account: the form cannot be used to flood someone's inbox.
    const issued = await this.oneTimeTokens.create(user.id, 'recovery', sha256(token), new Date(Date.now() + RECOVERY_TTL_MS), {
      minIntervalSeconds: RECOVERY_MAIL_INTERVAL_SECONDS,
    });
    if (!issued) return;
    await this.mailer.send(recoveryMail(user.email, `${this.config.WEB_URL}/login?type=recovery&token=${token}`));
  }
}

