import type { Browser, Page } from 'playwright-core';
import {
  createSubscribedUser,
  expectPage,
  GATEWAY_URL,
  launchChromium,
  signInWithRefreshToken,
  uniqueEmail,
  WEB_URL,
} from './browser.js';

// Issue #37: the plans sell "WebSocket access". Chromium's own WebSocket, opened from the signed-in
// dashboard with a ticket the session asked for, receives the review event a screening raises.

const PASSWORD = 'live-socket-e2e-passphrase';
/** Names that land in the review band on the sample lists (the first that does is used). */
const REVIEW_CANDIDATES = ['Joaquin Guzman', 'Ismail Haniya', 'Kim Jong Ung', 'Igor Sechinov', 'Lavrov'];

type Session = { access_token: string; refresh_token: string };
type Frame = { type: string; review?: { searched_name: string | null } };

async function call(path: string, init: RequestInit): Promise<Response> {
  return fetch(`${GATEWAY_URL}${path}`, init);
}

async function renewed(session: Session): Promise<Session> {
  const response = await call('/auth/v1/token?grant_type=refresh_token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: session.refresh_token }),
  });
  if (!response.ok) throw new Error(`the session refresh answered ${response.status}`);
  return (await response.json()) as Session;
}

async function ticketFor(session: Session): Promise<{ status: number; body: { path?: string; code?: string } }> {
  const response = await call('/api/monitoring/live-ticket', {
    method: 'POST',
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  return { status: response.status, body: (await response.json()) as { path?: string; code?: string } };
}

/** Opens the socket in the page; its frames collect in `window.liveFrames`, its fate in `window.liveState`. */
async function openInPage(page: Page, url: string): Promise<void> {
  await page.evaluate((socketUrl) => {
    const w = window as unknown as { liveFrames: unknown[]; liveState: string };
    w.liveFrames = [];
    w.liveState = 'connecting';
    const socket = new WebSocket(socketUrl);
    socket.onopen = () => (w.liveState = 'open');
    socket.onmessage = (event) => w.liveFrames.push(JSON.parse(String(event.data)));
    socket.onclose = (event) => (w.liveState = `closed ${event.code}`);
  }, url);
}

const frames = (page: Page) => page.evaluate(() => (window as unknown as { liveFrames: Frame[] }).liveFrames);
// The page may connect only to its own origin (CSP connect-src 'self'): the app's server proxies the upgrade.
const wsUrl = (path: string) => `${WEB_URL.replace(/^http/, 'ws')}${path}`;

describe('the live WebSocket, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let session: Session;
  let apiKey: string;

  beforeAll(async () => {
    browser = await launchChromium();
    const email = uniqueEmail('live-socket');
    session = await renewed(await createSubscribedUser(email, PASSWORD, 'large'));
    const key = await call('/api/settings/regenerate-api-key', {
      method: 'POST',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    apiKey = ((await key.json()) as { api_key: string }).api_key;
    page = await (await browser.newContext()).newPage();
    await signInWithRefreshToken(page, session.refresh_token);
  }, 120_000);

  afterAll(() => browser?.close());

  it('receives the review event a screening raises, as JSON frames after "ready"', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/ongoing-monitoring`);
    await expectPage(page, 'Ongoing Monitoring');
    const ticket = await ticketFor(session);
    expect(ticket.status).toBe(200);
    await openInPage(page, wsUrl(ticket.body.path!));
    await page.waitForFunction(() => (window as unknown as { liveFrames: Frame[] }).liveFrames.length > 0);
    expect((await frames(page))[0]).toEqual({ type: 'ready' });

    let reviewed: string | undefined;
    for (const name of REVIEW_CANDIDATES) {
      const screened = await call('/api/v1/screen', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ name }),
      });
      if (((await screened.json()) as { status: string }).status === 'review') {
        reviewed = name;
        break;
      }
    }
    expect(reviewed).toBeDefined();
    await page.waitForFunction(
      (name) =>
        (window as unknown as { liveFrames: Frame[] }).liveFrames.some(
          (f) => f.type === 'screening.review_required' && f.review?.searched_name === name,
        ),
      reviewed,
      { timeout: 15_000 },
    );
    await expectPage(page, 'Ongoing Monitoring');
  });

  it('opens one socket per ticket: a used ticket is refused before the handshake', async () => {
    const ticket = await ticketFor(session);
    await openInPage(page, wsUrl(ticket.body.path!));
    await page.waitForFunction(() => (window as unknown as { liveState: string }).liveState === 'open');
    await openInPage(page, wsUrl(ticket.body.path!));
    await page.waitForFunction(() => (window as unknown as { liveState: string }).liveState.startsWith('closed'));
    expect(await page.evaluate(() => (window as unknown as { liveState: string }).liveState)).toBe('closed 1006');
    await expectPage(page, 'Ongoing Monitoring');
  });

  it('gives no ticket to a plan without WebSocket access', async () => {
    const starter = await renewed(await createSubscribedUser(uniqueEmail('live-starter'), PASSWORD, 'small'));
    const refused = await ticketFor(starter);
    expect([refused.status, refused.body.code]).toEqual([403, 'FEATURE_NOT_IN_PLAN']);
  });
});
