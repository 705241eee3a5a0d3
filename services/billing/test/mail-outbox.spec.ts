import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { subjects, type CheckoutSessionReply } from '@vigil/proto';
import { simpleParser } from 'mailparser';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { SecretBox } from '../src/crypto/secret-box.js';
import { DEVELOPMENT_ENCRYPTION_KEY } from '../src/env.js';
import { mailContext } from '../src/mail/mail-outbox.repository.js';
import { eventually, freePort, startBillingStack, type BillingStack } from './harness.js';

// Sends go through a real relay and a polling worker: seconds on a busy machine, not jest's 5.
jest.setTimeout(30_000);

type Received = { to: string; subject: string; text: string; messageId: string };

/** A real SMTP relay on loopback: refuses any recipient at refused.example, keeps every other message. */
async function startRelay() {
  const received: Received[] = [];
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example')) return callback(new Error('mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address).join(','),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            messageId: parsed.messageId ?? '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${port}`, received, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The first defined value `fn` gives, polling. */
const until = async <T>(fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> =>
  (await eventually(fn, (value) => value !== undefined, timeoutMs)).value as T;

let relay: Awaited<ReturnType<typeof startRelay>>;
let stack: BillingStack;
const box = new SecretBox({ BILLING_ENCRYPTION_KEY: DEVELOPMENT_ENCRYPTION_KEY });

beforeAll(async () => {
  relay = await startRelay();
  stack = await startBillingStack({
    SMTP_URL: relay.url,
    MAIL_OUTBOX_INTERVAL_MS: '200',
    MAIL_RETRY_BASE_MS: '1000',
    MAIL_MAX_ATTEMPTS: '3',
  });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await relay?.stop();
});

const outboxRow = async (recipient: string) =>
  (
    await stack.db.query<{
      id: string;
      status: string;
      attempts: number;
      last_error: string | null;
      next_attempt_at: Date;
      sent_at: Date | null;
    }>(`SELECT id, status, attempts, last_error, next_attempt_at, sent_at FROM mail_outbox WHERE recipient = $1`, [
      recipient,
    ])
  ).rows;

/** A row as billing writes it, in the state given (what a crash or another sender leaves behind). */
async function insertMail(recipient: string, state: { status: string; attempts: number; claimedUntil: string }) {
  const id = randomUUID();
  await stack.db.query(
    `INSERT INTO mail_outbox (id, recipient, subject, body, status, attempts, claimed_until)
     VALUES ($1, $2, 'Left mid-send', $3, $4, $5, now() + $6::interval)`,
    [id, recipient, box.seal('The body.', mailContext(id)), state.status, state.attempts, state.claimedUntil],
  );
  return id;
}

describe("billing's mail outbox", () => {
  it('sends the welcome mail with the new API key over SMTP and marks it sent', async () => {
    const user = { id: randomUUID(), email: 'welcome@example.com' };
    const checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
      user,
      tier: 'starter',
      clientEmail: user.email,
    });
    await stack.call(subjects.billing.sandboxComplete, {
      user,
      sessionId: checkout.sessionId,
      cardNumber: '4242 4242 4242 4242',
    });
    const mail = await until(() => relay.received.find((m) => m.to === user.email), 15_000);
    expect(mail.subject).toBe('Your Vigil Starter plan is active');
    expect(mail.text).toMatch(/Your API key: [0-9a-f]{64}/);
    const [row] = await until(async () => {
      const rows = await outboxRow(user.email);
      return rows[0]?.status === 'sent' ? rows : undefined;
    });
    expect(row!.attempts).toBe(1);
    expect(mail.messageId).toBe(`<${row!.id}@billing.vigil>`);
  });

  it('retries a refused mail with growing waits, then keeps it as dead with its last error', async () => {
    const user = { id: randomUUID(), email: 'nobody@refused.example' };
    const checkout = await stack.call<CheckoutSessionReply>(subjects.billing.createCheckout, {
      user,
      tier: 'starter',
      clientEmail: user.email,
    });
    await stack.call(subjects.billing.sandboxComplete, {
      user,
      sessionId: checkout.sessionId,
      cardNumber: '4242 4242 4242 4242',
    });
    const first = await until(async () => {
      const [row] = await outboxRow(user.email);
      return row && row.attempts === 1 && row.status === 'pending' ? row : undefined;
    });
    expect(first.last_error).toMatch(/mailbox unavailable/);
    // 1 s after the first failure, then 2 s: three attempts take at least 3 s, and then no more.
    const dead = await until(async () => {
      const [row] = await outboxRow(user.email);
      return row?.status === 'dead' ? row : undefined;
    }, 20_000);
    expect(dead.attempts).toBe(3);
    expect(dead.next_attempt_at.getTime() - first.next_attempt_at.getTime()).toBeGreaterThanOrEqual(2_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await outboxRow(user.email))[0]!.attempts).toBe(3);
    expect(relay.received.some((m) => m.to === user.email)).toBe(false);
  }, 30_000);

  it('sends again, once, a mail whose sender died mid-send, and leaves one a live sender holds', async () => {
    // A sender claimed it and died: its lease has run out.
    const orphan = await insertMail('orphan@example.com', {
      status: 'sending',
      attempts: 1,
      claimedUntil: '-1 second',
    });
    // Another replica is sending this one right now.
    await insertMail('held@example.com', { status: 'sending', attempts: 1, claimedUntil: '1 hour' });
    const mail = await until(() => relay.received.find((m) => m.to === 'orphan@example.com'));
    expect(mail.messageId).toBe(`<${orphan}@billing.vigil>`);
    await until(async () => ((await outboxRow('orphan@example.com'))[0]?.status === 'sent' ? true : undefined));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(relay.received.filter((m) => m.to === 'orphan@example.com')).toHaveLength(1);
    expect(relay.received.some((m) => m.to === 'held@example.com')).toBe(false);
    expect((await outboxRow('held@example.com'))[0]!.status).toBe('sending');
  });
});
