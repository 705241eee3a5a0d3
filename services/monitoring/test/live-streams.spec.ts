import { jest } from '@jest/globals';
import { MonitoringStack } from './harness.js';

jest.setTimeout(120_000);

const PASSWORD = 'monitoring-test-passphrase';

/**
 * Issue #33, "streams": the live push ends with the session that opened it (sign-out, revocation
 * from another session, removal from the team revokes every session) and a user holds at most
 * LIVE_STREAMS_PER_USER of them (default 5), the oldest giving way.
 */
describe('live streams end with their session, and are capped per user', () => {
  const stack = new MonitoringStack();
  let email: string;
  const streams: AbortController[] = [];

  beforeAll(async () => {
    await stack.start(['auth', 'gateway']);
    email = 'streamer@example.com';
    // A medium client (live updates are medium and up) with this user as its member.
    await stack.member('medium', email);
  });
  afterAll(async () => {
    for (const stream of streams) stream.abort();
    await stack.stop();
  });

  /** A new session of the member: its bearer headers and its session id (the token's `sid`). */
  async function signIn() {
    const response = await fetch(`${stack.gatewayUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { access_token: token } = (await response.json()) as { access_token: string };
    const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string };
    return { headers: { authorization: `Bearer ${token}` }, sid };
  }

  /** Opens the stream and waits for `ready`; `ended()` resolves true once the server closes it within `ms`. */
  async function open(headers: Record<string, string>) {
    const controller = new AbortController();
    streams.push(controller);
    const response = await fetch(`${stack.gatewayUrl}/api/monitoring/stream`, { headers, signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    let done = false;
    const reading = (async () => {
      try {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          text += chunk.value;
        }
        done = true;
      } catch {
        // aborted by the test
      }
    })();
    const deadline = Date.now() + 10_000;
    while (!/event: ready/.test(text)) {
      if (Date.now() > deadline) throw new Error(`no ready event: ${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return {
      ended: async (ms: number) => {
        await Promise.race([reading, new Promise((r) => setTimeout(r, ms))]);
        return done;
      },
    };
  }

  it('ends the stream when its session signs out', async () => {
    const session = await signIn();
    const stream = await open(session.headers);
    const bystander = await open((await signIn()).headers);
    const out = await fetch(`${stack.gatewayUrl}/auth/v1/logout`, { method: 'POST', headers: session.headers });
    expect(out.status).toBeLessThan(300);
    expect(await stream.ended(5_000)).toBe(true);
    // Another session of the same user keeps its stream.
    expect(await bystander.ended(500)).toBe(false);
  });

  it('ends the stream when its session is revoked from another one', async () => {
    const revoked = await signIn();
    const stream = await open(revoked.headers);
    const other = await signIn();
    const answer = await fetch(`${stack.gatewayUrl}/auth/v1/sessions/${revoked.sid}`, {
      method: 'DELETE',
      headers: other.headers,
    });
    expect(answer.status).toBeLessThan(300);
    expect(await stream.ended(5_000)).toBe(true);
  });

  it('ends the stream of a member removed from the team', async () => {
    const owner = await signIn();
    const invited = await fetch(`${stack.gatewayUrl}/api/team/invitations`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'leaver@example.com', member_role: 'analyst' }),
    });
    expect(invited.status).toBe(201);
    let token: string | undefined;
    for (let i = 0; i < 100 && !token; i++) {
      const { rows } = await stack.db.query<{ text_body: string }>(
        `SELECT text_body FROM "${stack.schema('auth')}".mailbox WHERE recipient = 'leaver@example.com' ORDER BY created_at DESC LIMIT 1`,
      );
      token = /\/invitation\?token=([A-Za-z0-9_-]+)/.exec(rows[0]?.text_body ?? '')?.[1];
      if (!token) await new Promise((r) => setTimeout(r, 100));
    }
    const joined = await fetch(`${stack.gatewayUrl}/auth/v1/team-invitations/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, full_name: 'Leaver', password: PASSWORD, confirm_password: PASSWORD, accepted_terms: true }),
    });
    expect(joined.status).toBe(200);
    const leaver = (await joined.json()) as { access_token: string; user: { id: string } };
    const stream = await open({ authorization: `Bearer ${leaver.access_token}` });
    const removed = await fetch(`${stack.gatewayUrl}/api/team/members/${leaver.user.id}`, {
      method: 'DELETE',
      headers: owner.headers,
    });
    expect(removed.status).toBe(200);
    expect(await stream.ended(5_000)).toBe(true);
  });

  it('keeps at most five streams per user open: a sixth ends the oldest', async () => {
    // Whatever the earlier tests left open ends first: open five fresh ones, then a sixth.
    const session = await signIn();
    const opened = [];
    for (let i = 0; i < 5; i++) opened.push(await open(session.headers));
    expect(await opened[0]!.ended(300)).toBe(false);
    await open(session.headers);
    expect(await opened[0]!.ended(5_000)).toBe(true);
    for (const stream of opened.slice(1)) expect(await stream.ended(100)).toBe(false);
  });
});
