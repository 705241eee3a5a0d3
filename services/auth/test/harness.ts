// Integration-test harness for auth, on the shared harness: a private nats-server, a throwaway
// Postgres schema, and the built auth service as a child process whose every log line is
// kept, so tests can both drive it over NATS and grep what it printed.
import { DomainError, type RpcClient } from '@vigil/platform';
import {
  TEST_DATABASE_URL,
  TestStack,
  enrolAuthenticator,
  eventually,
  freePort,
  natsFactorCalls,
} from '@vigil/platform/testing';
import { subjects, type MailboxMessage, type Session } from '@vigil/proto';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const SERVICES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Tests run with encryption at rest on, as production should. */
export const TEST_ENCRYPTION_KEY = randomBytes(32).toString('base64');

export const DATABASE_URL = TEST_DATABASE_URL;

export type AuthStack = {
  schema: string;
  natsUrl: string;
  /** NATS_URL and auth's NATS_NKEY_SEED: what another auth process (the seed script) connects with. */
  busEnv: Record<string, string>;
  rpc: RpcClient;
  db: pg.Client;
  /** Everything the service wrote to stdout and stderr so far. */
  logs: () => string;
  /** Every reply and error seen through `call`, serialised: grepped for secrets. */
  transcript: string[];
  call: <T>(subject: string, payload: unknown) => Promise<T>;
  /** The error a call fails with (a DomainError carrying the remote code). */
  fail: (subject: string, payload: unknown) => Promise<DomainError>;
  events: (subject: string) => { received: unknown[]; stop: () => void };
  mailbox: (to: string) => Promise<MailboxMessage[]>;
  waitForMail: (to: string, count: number) => Promise<MailboxMessage[]>;
  stop: () => Promise<void>;
};

/** Starts everything one test file needs; each file gets its own broker and schema, so files run in parallel safely. */
export async function startAuthStack(env: Record<string, string> = {}): Promise<AuthStack> {
  const stack = new TestStack(SERVICES_DIR, {
    rpcTimeoutMs: 5_000,
    env: {
      // Verbose on purpose: the secret-grep test wants every line the service can print.
      LOG_LEVEL: 'debug',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WEB_URL: 'http://web.test',
      AUTH_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      // A test stack is a development stack: the mailbox transport, listed to administrators.
      VIGIL_DEV_STACK: '1',
      ...env,
    },
  });
  try {
    return await startOn(stack);
  } catch (error) {
    // Nothing a failed start spawned may outlive it: it would keep jest from exiting.
    await stack.stop();
    throw error;
  }
}

async function startOn(stack: TestStack): Promise<AuthStack> {
  const schema = stack.schema('auth');
  await stack.startNats();
  await stack.migrate('auth');
  const service = stack.spawn('auth');
  // Up when it answers its health subject (migrations are done; the schema is ready).
  await stack.waitForHealth('auth', service);
  const rpc = stack.rpc;
  const db = await stack.connect('auth');
  const transcript: string[] = [];

  const call = async <T>(subject: string, payload: unknown): Promise<T> => {
    try {
      // Tests send what no contract allows, to see auth refuse it: no contract on this side.
      const reply = await rpc.requestUnchecked(subject, payload);
      transcript.push(JSON.stringify(reply));
      return reply as T;
    } catch (error) {
      transcript.push(JSON.stringify(error), error instanceof Error ? error.message : String(error));
      throw error;
    }
  };

  // The mail as the mailbox transport stored it, read straight from the table (the test is the
  // recipient, not a client of the service), and around the transcript: carrying links is its job.
  const mailbox = async (to: string): Promise<MailboxMessage[]> => {
    const { rows } = await db.query<{
      id: string;
      recipient: string;
      sender: string;
      subject: string;
      text_body: string;
      html_body: string | null;
      created_at: Date;
    }>(
      `SELECT id, recipient, sender, subject, text_body, html_body, created_at FROM mailbox WHERE recipient = $1 ORDER BY created_at DESC, id`,
      [to.toLowerCase()],
    );
    return rows.map((r) => ({
      id: r.id,
      to: r.recipient,
      from: r.sender,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      created_at: r.created_at.toISOString(),
    }));
  };

  return {
    schema,
    natsUrl: stack.natsUrl,
    busEnv: stack.busEnv('auth'),
    rpc,
    db,
    logs: () => service.output,
    transcript,
    call,
    fail: async (subject, payload) => {
      try {
        await call(subject, payload);
      } catch (error) {
        if (error instanceof DomainError) return error;
        throw error;
      }
      throw new Error(`${subject} succeeded but was expected to fail`);
    },
    events: (subject) => {
      const received: unknown[] = [];
      const sub = stack.nc.subscribe(subject);
      void (async () => {
        for await (const msg of sub) {
          const body = msg.json<{ data?: unknown }>();
          received.push(body && typeof body === 'object' && 'data' in body ? body.data : body);
        }
      })();
      return { received, stop: () => sub.unsubscribe() };
    },
    mailbox,
    waitForMail: async (to, count) => {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const messages = await mailbox(to);
        if (messages.length >= count) return messages;
        if (Date.now() > deadline) throw new Error(`expected ${count} message(s) to ${to}, found ${messages.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () => stack.stop(),
  };
}

/** The token from a link in a mail body (…token=XYZ). */
export function tokenFromMail(message: MailboxMessage): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(message.text);
  if (!match) throw new Error(`no token link in "${message.subject}"`);
  return match[1]!;
}

export const TEST_PASSWORD = 'lantern-orchard-42';

/** Issues an invitation code the way the seed does (straight into the table), for bootstrapping the first admin. */
export async function insertInvitation(stack: AuthStack, code: string, expiresInSeconds = 3600): Promise<void> {
  const normalised = code
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  await stack.db.query(
    `INSERT INTO invitation_codes (code_hash, expires_at) VALUES ($1, now() + make_interval(secs => $2))`,
    [createHash('sha256').update(normalised).digest('hex'), expiresInSeconds],
  );
}

/** Signs up and confirms a regular user; answers the session of the confirmation. */
export async function userSession(stack: AuthStack, email: string, password = TEST_PASSWORD): Promise<Session> {
  await stack.call(subjects.auth.signup, {
    full_name: 'Test Person',
    email,
    password,
    confirm_password: password,
    accepted_terms: true,
  });
  const mails = await stack.waitForMail(email, 1);
  return stack.call<Session>(subjects.auth.verify, { type: 'signup', token: tokenFromMail(mails[mails.length - 1]!) });
}

/** An admin (allow-listed email + invitation code), signed in with an authenticator (aal2). */
export async function adminSession(stack: AuthStack, email: string, password = TEST_PASSWORD): Promise<Session> {
  const code = `BOOT-${randomBytes(6).toString('hex')}`;
  await insertInvitation(stack, code);
  await stack.call(subjects.auth.signup, {
    full_name: 'Admin',
    email,
    password,
    confirm_password: password,
    accepted_terms: true,
    invitation_code: code,
  });
  const password1 = await stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password });
  // Every admin action needs aal2 (issue #33): the admin enrols an authenticator, as the console makes them.
  const { session } = await enrolAuthenticator<Session>(natsFactorCalls(stack.call), password1.access_token);
  return session;
}

export function claimsOf(accessToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString());
}

export { eventually, freePort };
