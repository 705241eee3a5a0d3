import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Database, type Queryable } from '@vigil/platform';
import { AuthService } from '../auth/auth.service.js';
import { ClientsService } from '../clients/clients.service.js';
import { PasswordHasher } from '../crypto/password-hasher.js';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { InvitationsService } from '../invitations/invitations.service.js';
import { MfaService } from '../mfa/mfa.service.js';
import { UsersRepository } from '../users/users.repository.js';

/** What `seed.js` prints (one JSON line) on every run; the first run creates it. */
export type DemoData = {
  seeded: boolean;
  /**
   * Every admin route needs aal2, so the demo admin has a verified authenticator: `totpSecret` (base32)
   * goes into an authenticator app, or `node infra/scripts/totp.mjs <secret>` prints the current code.
   */
  admin: { email: string; password: string; totpSecret: string; totpUri: string };
  client: { id: string; name: string; email: string; password: string; apiKey: string };
  /** An unused admin invitation code, for a second allow-listed admin (see ADMIN_EMAILS). */
  invitationCode: string;
};

const DEMO_CLIENT = { name: 'Demo Bank', email: 'demo@example.com' } as const;

/**
 * Demo data for a newcomer's `npm start`: an admin (signed up through the real
 * admin path, using up its invitation), a large-tier client with an active
 * subscription, a user of that client and its API key. Created once; later runs
 * print the same data. The credentials are random per database and are kept in
 * seed_runs so every start can print them: demo stacks only.
 */
@Injectable()
export class DemoSeeder {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly db: Database,
    private readonly auth: AuthService,
    private readonly clients: ClientsService,
    private readonly invitations: InvitationsService,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly mfa: MfaService,
  ) {}

  async run(): Promise<DemoData> {
    if (this.config.MAIL_TRANSPORT !== 'mailbox') {
      throw new Error(
        'Refusing to seed demo accounts: MAIL_TRANSPORT is not "mailbox", so this does not look like a development stack.',
      );
    }
    const adminEmail = this.config.ADMIN_EMAILS[0];
    if (!adminEmail) throw new Error('ADMIN_EMAILS is empty: there is no allow-listed address for the demo admin.');

    // A session-level lock needs one connection held throughout: two starts at once must not both
    // seed, so one waits for the other, then reads its data.
    return this.db.session(async (runner) => {
      await runner.query(`SELECT pg_advisory_lock(hashtext('vigil.auth.seed'))`);
      try {
        const done = await runner.query<{ data: Omit<DemoData, 'seeded'> }>(
          `SELECT data FROM seed_runs WHERE name = 'demo'`,
        );
        if (done[0]) return { seeded: false, ...(await this.withAdminFactor(runner, done[0].data)) };

        const adminPassword = this.randomPassword();
        const adminInvitation = await this.invitations.create(null);
        await this.auth.signup({
          full_name: 'Demo Admin',
          email: adminEmail,
          password: adminPassword,
          confirm_password: adminPassword,
          accepted_terms: true,
          invitation_code: adminInvitation.code,
        });

        const client = await this.clients.create({
          clientName: DEMO_CLIENT.name,
          tier: 'large',
          contactEmail: DEMO_CLIENT.email,
          subscriptionStatus: 'active',
        });
        const clientPassword = this.randomPassword();
        const user = await this.users.create({
          email: DEMO_CLIENT.email,
          fullName: 'Demo Analyst',
          passwordHash: await this.passwords.hash(clientPassword),
          role: 'user',
          confirmed: true,
          clientId: client.id,
        });
        if (!user) throw new Error(`${DEMO_CLIENT.email} already has an account; drop the auth schema to reseed.`);
        await this.users.addIdentity(user.id, 'email', user.id, user.email);

        const spare = await this.invitations.create(null, 24 * 30);
        const data: Omit<DemoData, 'seeded'> = {
          admin: { email: adminEmail, password: adminPassword, ...(await this.adminFactor(adminEmail)) },
          client: {
            id: client.id,
            name: client.client_name,
            email: DEMO_CLIENT.email,
            password: clientPassword,
            apiKey: client.api_key,
          },
          invitationCode: spare.code,
        };
        await runner.query(`INSERT INTO seed_runs (name, data) VALUES ('demo', $1)`, [JSON.stringify(data)]);
        return { seeded: true, ...data };
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtext('vigil.auth.seed'))`).catch(() => undefined);
      }
    });
  }

  /** A demo stack seeded before admins needed aal2 gets its admin's authenticator on the next start. */
  private async withAdminFactor(runner: Queryable, data: Omit<DemoData, 'seeded'>): Promise<Omit<DemoData, 'seeded'>> {
    if (data.admin.totpSecret) return data;
    const updated = { ...data, admin: { ...data.admin, ...(await this.adminFactor(data.admin.email)) } };
    await runner.query(`UPDATE seed_runs SET data = $1 WHERE name = 'demo'`, [JSON.stringify(updated)]);
    return updated;
  }

  private async adminFactor(email: string): Promise<{ totpSecret: string; totpUri: string }> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new Error(`The demo admin ${email} has no account.`);
    const { secret, uri } = await this.mfa.enrollVerified(user.id, email, 'Demo authenticator');
    return { totpSecret: secret, totpUri: uri };
  }

  private randomPassword(): string {
    return `demo-${randomBytes(9).toString('base64url')}`;
  }
}
