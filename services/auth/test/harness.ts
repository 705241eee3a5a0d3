// Integration-test harness: a private nats-server, a throwaway Postgres schema, and
// the built auth service as a child process whose every log line is kept, so tests
// can both drive it over NATS and grep what it printed.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DomainError, Nats, RpcClient, runMigrations } from '@vigil/platform';
import { contracts, subjects, type MailboxMessage, type Session } from '@vigil/proto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { freePort, natsServerBinary } from '@vigil/platform/testing';

const SERVICE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Tests run with encryption at rest on, as production should. */
export const TEST_ENCRYPTION_KEY = randomBytes(32).toString('base64');

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vigil_test';

export type AuthStack = {
  schema: string;
  natsUrl: string;
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
  const schema = `t${randomBytes(4).toString('hex')}_auth`;
  await runMigrations({ databaseUrl: DATABASE_URL, schema, migrations });

  // A private broker: another auth process on the shared NATS (a developer's `npm start`,
  // another test file) would otherwise answer our requests from its own schema.
  let natsProcess: ChildProcess | undefined;
  let natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const binary = natsServerBinary();
  if (binary) {
    const port = await freePort();
    natsProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    natsUrl = `nats://127.0.0.1:${port}`;
  }
  let nc: NatsConnection | undefined;
  for (let i = 0; i < 50 && !nc; i++) {
    nc = await connect({ servers: natsUrl }).catch(async () => {
      await new Promise((r) => setTimeout(r, 100));
      return undefined;
    });
  }
  if (!nc) throw new Error(`NATS did not come up at ${natsUrl}`);

  let output = '';
  const child = spawn(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'main.js')], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL,
      NATS_URL: natsUrl,
      DB_SCHEMA: schema,
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));

  const rpc = new RpcClient(new Nats(nc), 5_000);
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

  // Up when it answers its health subject (migrations are done; the schema is ready).
  const started = Date.now();
  for (;;) {
    try {
      await rpc.request(contracts.health('auth'), {}, { timeoutMs: 500 });
      break;
    } catch {
      if (child.exitCode !== null || Date.now() - started > 20_000) throw new Error(`auth did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const db = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path="${schema}"` });
  await db.connect();

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
    natsUrl,
    rpc,
    db,
    logs: () => output,
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
      const sub = nc!.subscribe(subject);
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
    stop: async () => {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await db.end();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await nc!.close();
      natsProcess?.kill('SIGTERM');
    },
  };
}

/** The token from a link in a mail body (…token=XYZ). */
export function tokenFromMail(message: MailboxMessage): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(message.text);
  if (!match) throw new Error(`no token link in "${message.subject}"`);
  return match[1]!;
}

export async function eventually<T>(
  fn: () => T | Promise<T>,
  accept: (v: T) => boolean,
  timeoutMs = 3_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
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

/** An admin (allow-listed email + invitation code), signed in. */
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
  return stack.call<Session>(subjects.auth.token, { grant_type: 'password', email, password });
}

export function claimsOf(accessToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString());
}

export { freePort };
