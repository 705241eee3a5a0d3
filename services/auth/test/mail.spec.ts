import { jest } from '@jest/globals';
import { subjects, type MailboxListReply, type Session } from '@vigil/proto';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import {
  TEST_PASSWORD,
  adminSession,
  freePort,
  startAuthStack,
  tokenFromMail,
  userSession,
  type AuthStack,
} from './harness.js';

jest.setTimeout(60_000);

const SERVICE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the development mailbox cannot be used to take over an account', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ ADMIN_EMAILS: 'mailroom@vigil.dev' });
  });
  afterAll(() => stack?.stop());

  it('refuses the recover → read the mailbox → verify chain to anyone but an administrator', async () => {
    await userSession(stack, 'victim@example.com');
    const attacker = await userSession(stack, 'attacker@example.com');
    await stack.call(subjects.auth.recover, { email: 'victim@example.com' });
    await stack.waitForMail('victim@example.com', 2);

    // Anonymous, as the attacker found it: no list, no link.
    expect((await stack.fail(subjects.auth.mailbox, { to: 'victim@example.com' })).code).toBe('UNAUTHENTICATED');
    // Signed in, but not an administrator.
    expect(
      (await stack.fail(subjects.auth.mailbox, { to: 'victim@example.com', accessToken: attacker.access_token })).code,
    ).toBe('FORBIDDEN');
    expect((await stack.fail(subjects.auth.mailbox, { accessToken: 'not-a-token' })).code).toBe('UNAUTHENTICATED');

    // An administrator of a development stack still reads it (what /dev/mailbox is for).
    const admin = await adminSession(stack, 'mailroom@vigil.dev');
    const listed = await stack.call<MailboxListReply>(subjects.auth.mailbox, {
      to: 'victim@example.com',
      accessToken: admin.access_token,
    });
    expect(listed.messages.map((m) => m.subject)).toEqual(expect.arrayContaining(['Reset your Vigil password']));
  });
});

describe('the development mailbox outside a development stack', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    // Started as a container would be: no VIGIL_DEV_STACK.
    stack = await startAuthStack({ ADMIN_EMAILS: 'chief@vigil.dev', VIGIL_DEV_STACK: '' });
  });
  afterAll(() => stack?.stop());

  it('does not exist, even for an administrator', async () => {
    const admin = await adminSession(stack, 'chief@vigil.dev');
    expect((await stack.fail(subjects.auth.mailbox, { accessToken: admin.access_token })).code).toBe('NOT_FOUND');
    expect((await stack.fail(subjects.auth.mailbox, {})).code).toBe('NOT_FOUND');
  });
});

describe('production', () => {
  const boot = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(SERVICE_DIR, 'dist', 'src', 'main.js')], {
      // Nothing to connect to: a process past its configuration would fail otherwise, or hang until the timeout.
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        NATS_URL: 'nats://127.0.0.1:1',
        ...env,
      },
      encoding: 'utf8',
      timeout: 20_000,
    });

  it('refuses to boot with the mailbox transport, flag or no flag', () => {
    for (const flag of [{}, { VIGIL_DEV_STACK: '1' }] as Record<string, string>[]) {
      const result = boot({ NODE_ENV: 'production', AUTH_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...flag });
      expect({ status: result.status, stderr: result.stderr }).toEqual({
        status: 78,
        stderr: expect.stringContaining('MAIL_TRANSPORT: must be smtp in production'),
      });
    }
  });
});

/** Quoted-printable as nodemailer writes text bodies: soft line breaks and =XX escapes. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe('MAIL_TRANSPORT=smtp', () => {
  const received: { from: string; to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let stack: AuthStack;

  beforeAll(async () => {
    const port = await freePort();
    server = new SMTPServer({
      authOptional: true,
      // A local test server has no certificate for STARTTLS.
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    stack = await startAuthStack({
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Vigil <no-reply@vigil.test>',
      ADMIN_EMAILS: 'post@vigil.dev',
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('delivers the confirmation over SMTP, its link works, and nothing is kept in the mailbox', async () => {
    await stack.call(subjects.auth.signup, {
      full_name: 'Post Person',
      email: 'post@example.com',
      password: TEST_PASSWORD,
      confirm_password: TEST_PASSWORD,
      accepted_terms: true,
    });
    const deadline = Date.now() + 10_000;
    while (!received.some((m) => m.to.includes('post@example.com')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const mail = received.find((m) => m.to.includes('post@example.com'));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('no-reply@vigil.test');
    const text = decodeQuotedPrintable(mail!.raw);
    expect(text).toContain('Subject: Confirm your Vigil account');

    const session = await stack.call<Session>(subjects.auth.verify, {
      type: 'signup',
      token: tokenFromMail({ text } as Parameters<typeof tokenFromMail>[0]),
    });
    expect(session.user.email).toBe('post@example.com');

    expect(await stack.mailbox('post@example.com')).toEqual([]);
    const admin = await adminSession(stack, 'post@vigil.dev');
    expect((await stack.fail(subjects.auth.mailbox, { accessToken: admin.access_token })).code).toBe('NOT_FOUND');
  });
});
