// The real stack for the audit tests, on the shared harness: the built auth, gateway, audit
// (and, when asked, screening) services as child processes in throwaway schemas, and plain
// HTTP against the gateway. The audit service is a child process so that a test can kill -9 it.
import { jetstreamManager } from '@nats-io/jetstream';
import {
  TEST_DATABASE_URL,
  TestStack,
  enrolAuthenticator,
  eventually,
  freePort,
  natsFactorCalls,
  runNode,
} from '@vigil/platform/testing';
import { contracts, type Tier } from '@vigil/proto';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const AUDIT_DIR = join(SERVICES_DIR, 'audit');
export const DATABASE_URL = TEST_DATABASE_URL;
export const PASSWORD = 'audit-trail-passphrase';
export { eventually, runNode };

export type Reply = { status: number; headers: Headers; text: string; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

export class AuditStack extends TestStack {
  readonly adminEmail: string;
  gatewayUrl = '';

  constructor() {
    const adminEmail = `audit-admin-${randomBytes(3).toString('hex')}@vigil.dev`;
    super(SERVICES_DIR, {
      env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', WEB_URL: 'http://web.test', ADMIN_EMAILS: adminEmail },
    });
    this.adminEmail = adminEmail;
  }

  auditEnv(extra: Record<string, string> = {}) {
    return this.env('audit', { AUDIT_ACK_WAIT_MS: '2000', AUDIT_RETENTION_EVERY_HOURS: '0', ...extra });
  }

  /** Starts NATS and the services; `gateway: false` leaves only NATS and the audit service. */
  async start(options: { gateway?: boolean; screening?: boolean; gatewayEnv?: Record<string, string> } = {}) {
    const { gateway = true, screening = false } = options;
    await this.startNats();
    const backends = ['audit', ...(gateway ? ['auth'] : []), ...(screening ? ['screening'] : [])];
    await Promise.all(backends.map((s) => this.migrate(s)));
    this.startAudit();
    for (const service of backends.filter((s) => s !== 'audit')) this.spawn(service);
    await this.waitForHealth('audit');
    if (gateway) await this.waitForHealth('auth');
    if (screening) {
      const probe = {
        clientId: 'probe',
        tier: 'large' as const,
        feeds: ['sanctions' as const],
        entity: { name: 'probe' },
      };
      await this.waitFor(contracts.screening.screen, probe, { timeoutMs: 120_000, process: this.process('screening') });
    }
    if (gateway) {
      const httpPort = await freePort();
      this.gatewayUrl = `http://127.0.0.1:${httpPort}`;
      const process = this.spawn('gateway', {
        PORT: String(httpPort),
        HOST: '127.0.0.1',
        BULK_WORKER: 'false',
        ...options.gatewayEnv,
      });
      await this.waitForHttp(`${this.gatewayUrl}/health`, { process });
      // The gateway creates its streams on its first event; the audit consumers attach to them.
      await this.http('GET', '/api/v1/status', { headers: { 'x-api-key': '0'.repeat(64) } });
      await this.consumersAttached(['SECURITY', 'ADMIN_ACTIONS', ...(screening ? ['SCREENINGS'] : [])]);
    }
  }

  startAudit(extra: Record<string, string> = {}) {
    return this.spawn('audit', {}, { env: this.auditEnv(extra) });
  }

  /** kill -9: no shutdown hook runs, whatever it held unacknowledged is redelivered later. */
  killAudit(): Promise<void> {
    return this.kill('audit');
  }

  async consumersAttached(streams: string[]) {
    const durable: Record<string, string> = {
      SECURITY: 'audit-security',
      ADMIN_ACTIONS: 'audit-admin-actions',
      SCREENINGS: 'audit-screenings',
    };
    const jsm = await jetstreamManager(this.nc);
    await eventually(
      async () => {
        for (const stream of streams) {
          const ok = await jsm.consumers.info(stream, durable[stream]!).then(
            (info) => info.num_waiting > 0 || info.delivered.consumer_seq >= 0,
            () => false,
          );
          if (!ok) return false;
        }
        return true;
      },
      (ok) => ok,
      30_000,
    );
  }

  async http(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<Reply> {
    const res = await fetch(`${this.gatewayUrl}${path}`, {
      method,
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // CSV and other text answers
    }
    return { status: res.status, headers: res.headers, text, body };
  }

  /** The allow-listed admin, signed up with an invitation code and signed in: its session token. */
  async admin(): Promise<{ token: string; id: string; email: string }> {
    const code = randomBytes(6).toString('hex').toUpperCase();
    await this.sql(
      'auth',
      `INSERT INTO invitation_codes (code_hash, expires_at) VALUES ($1, now() + interval '1 hour')`,
      [createHash('sha256').update(code).digest('hex')],
    );
    const form = {
      full_name: 'Audit Admin',
      email: this.adminEmail,
      password: PASSWORD,
      confirm_password: PASSWORD,
      accepted_terms: true,
      invitation_code: code,
    };
    const signup = await this.http('POST', '/auth/v1/signup', { body: form });
    if (signup.status >= 300) throw new Error(`admin signup: ${signup.status} ${signup.text}`);
    const session = await this.request(contracts.auth.token, {
      grant_type: 'password',
      email: this.adminEmail,
      password: PASSWORD,
    });
    // Every admin route needs aal2 (issue #33): the admin enrols an authenticator, as the console makes them.
    const calls = natsFactorCalls(
      <T>(subject: string, payload: object) => this.requestUnchecked(subject, payload) as Promise<T>,
    );
    const raised = await enrolAuthenticator(calls, session.access_token);
    return { token: raised.session.access_token, id: session.user.id, email: this.adminEmail };
  }

  /** A confirmed user attached to a new client, signed in: the client, its key and the session token. */
  async member(tier: Tier, email: string, clientName = `Bank ${randomBytes(3).toString('hex')}`) {
    const signup = await this.http('POST', '/auth/v1/signup', {
      body: { full_name: 'Analyst', email, password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true },
    });
    if (signup.status >= 300) throw new Error(`signup: ${signup.status} ${signup.text}`);
    // The confirmation as auth's mailbox transport stored it: the dev mailbox route is for administrators.
    const { value: mail } = await eventually(
      () =>
        this.sql('auth', `SELECT text_body FROM mailbox WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1`, [
          email.toLowerCase(),
        ]),
      (rows) => rows.length > 0,
      10_000,
    );
    const confirmToken = /token=([A-Za-z0-9_-]+)/.exec(mail[0].text_body as string)![1];
    const verified = await this.http('POST', '/auth/v1/verify', { body: { type: 'signup', token: confirmToken } });
    const reply = await this.request(contracts.clients.provision, {
      clientName,
      contactEmail: email,
      tier,
      userId: verified.body.user.id,
    });
    const signedIn = await this.http('POST', '/auth/v1/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    return {
      id: reply.client.id,
      key: reply.api_key!,
      name: clientName,
      token: signedIn.body.access_token as string,
      userId: verified.body.user.id as string,
    };
  }
}
