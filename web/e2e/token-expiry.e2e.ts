import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_URL,
  expectNoPageErrors,
  expectPage,
  GATEWAY_URL,
  HEADINGS,
  launchChromium,
  signInWithRefreshToken,
  watchPage,
  WEB_URL,
  type PageWatcher,
  passwordGrant,
  demoAdminSecret,
  raiseWithCode,
} from './browser.js';

/**
 * An access token that expires mid-session, for real. infra/scripts/browser-tests.mjs runs this
 * file last, with auth restarted to issue 30-second access tokens, which the services refuse once
 * they are past their `exp`. Every page's SessionKeeper refreshes shortly before expiry by the
 * page's own clock; here the analyst's clock runs two minutes behind the servers' (as an unsynced
 * laptop's may), so that refresh would come over a minute after the token died, and only the gateway
 * base query's refresh on a 401 keeps them at work. Each page's token expires during one shared wait.
 */
const CLOCK_BEHIND_MS = 2 * 60_000;
/** The gateway accepts a token this long past its `exp` (clockTolerance in session-tokens.service.ts); auth does not. */
const GATEWAY_CLOCK_TOLERANCE_MS = 5_000;
const REFRESH_PATH = '/auth/v1/token?grant_type=refresh_token';
/** How long a response body may take to read: one the page itself never reads may never come, and is left out. */
const BODY_READ_MS = 3_000;

/** `totpSecret`: an admin's authenticator; every admin route needs the code step (aal2). */
type Account = { email: string; password: string; totpSecret?: string };
type GatewaySession = {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  user: { factors: { id: string; status: string }[] };
};
/** A gateway call the page made, as it was answered (`at`: when, in ms), with what the tests read of the body. */
type Answer = { method: string; path: string; status: number; at: number; code?: string; expiresAt?: number };

function account(emailVariable: string, passwordVariable: string): Account {
  const email = process.env[emailVariable];
  const password = process.env[passwordVariable];
  if (!email || !password) {
    throw new Error(`${emailVariable} is not set: run through infra/scripts/browser-tests.mjs (or npm test)`);
  }
  return { email, password };
}

/** A session started at the gateway, as a sign-in on another device would start one. */
async function signInElsewhere({ email, password, totpSecret }: Account): Promise<GatewaySession> {
  const response = await passwordGrant(email, password);
  if (!response.ok) throw new Error(`the password sign-in answered ${response.status}: ${await response.text()}`);
  const signedIn = (await response.json()) as GatewaySession;
  const session = totpSecret ? await raiseWithCode(signedIn, totpSecret) : signedIn;
  if (session.expires_in > 60) {
    throw new Error(
      `auth issues ${session.expires_in}-second access tokens: run this file through infra/scripts/browser-tests.mjs, ` +
        'which restarts auth with 30-second ones for it',
    );
  }
  return session;
}

function sessionIdOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    sid: string;
  };
  return payload.sid;
}

/** The user, on another device, signs the browser's session out from their list of sessions. */
async function revokeFromElsewhere(who: Account, sessionId: string): Promise<void> {
  const other = await signInElsewhere(who);
  const response = await fetch(`${GATEWAY_URL}/auth/v1/sessions/${encodeURIComponent(sessionId)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${other.access_token}` },
  });
  if (!response.ok)
    throw new Error(`revoking session ${sessionId} answered ${response.status}: ${await response.text()}`);
}

/** Every answer to the page's calls to the gateway (through its app's origin), in order. */
function recordAnswers(page: Page): () => Promise<Answer[]> {
  const recorded: Promise<Answer>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/') && !url.pathname.startsWith('/auth/v1/')) return;
    const answer: Answer = {
      method: response.request().method(),
      path: `${url.pathname}${url.search}`,
      status: response.status(),
      at: Date.now(),
    };
    // Bodies are read only where the tests need them: the refresher never reads a refused refresh's body.
    const refreshed = answer.path === REFRESH_PATH && response.ok();
    const refused = answer.path !== REFRESH_PATH && answer.status === 401;
    if (!refreshed && !refused) return void recorded.push(Promise.resolve(answer));
    const body = response.json().then((read: { code?: string; expires_at?: number }) => ({
      ...answer,
      ...(refreshed ? { expiresAt: read.expires_at } : { code: read.code }),
    }));
    const late = new Promise<Answer>((resolve) => setTimeout(() => resolve(answer), BODY_READ_MS));
    recorded.push(Promise.race([body.catch(() => answer), late]));
  });
  return () => Promise.all(recorded);
}

/** The refreshes among the answers, by status. */
const refreshes = (answers: Answer[]) => answers.filter((a) => a.path === REFRESH_PATH).map((a) => a.status);

/**
 * What the page's calls show once its token had expired: the first call refused (the dashboard's
 * own 30-second poll or the user's action, whichever came first) was refused as unauthenticated and
 * only after the token's `exp`; every refresh succeeded; every refused call was answered on its retry.
 */
function expectCarriedOnPastExpiry(answers: Answer[], expiresAt: number) {
  const refused = answers.filter((a) => a.status === 401);
  expect(refused.length).toBeGreaterThan(0);
  expect(refused[0]?.code).toBe('UNAUTHENTICATED');
  expect(refused[0]!.at).toBeGreaterThanOrEqual(expiresAt);
  const first = answers.indexOf(refused[0]!);
  expect(refreshes(answers.slice(first))).toContain(200);
  expect(refreshes(answers).filter((status) => status !== 200)).toEqual([]);
  const unanswered = answers.filter(
    (a, i) =>
      a.status === 401 &&
      !answers.slice(i + 1).some((b) => b.method === a.method && b.path === a.path && b.status < 400),
  );
  expect(unanswered).toEqual([]);
}

type SignedInPage = {
  page: Page;
  watcher: PageWatcher;
  answers: () => Promise<Answer[]>;
  sessionId: string;
  /** When the access token the page restored its session with expired (ms). */
  expiresAt: number;
};

/**
 * Signs `who` in, restores the session in a page of the app whose clock runs behind the servers',
 * and opens `path`, known by its heading.
 */
async function openSignedIn(
  browser: Browser,
  who: Account,
  appUrl: string,
  path: string,
  heading: string,
): Promise<SignedInPage> {
  const session = await signInElsewhere(who);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.clock.install({ time: Date.now() - CLOCK_BEHIND_MS });
  const page = await context.newPage();
  const watcher = watchPage(page);
  const answers = recordAnswers(page);
  await signInWithRefreshToken(page, session.refresh_token, appUrl);
  await page.goto(`${appUrl}${path}`);
  await expectPage(page, heading);
  const restored = (await answers()).find((a) => a.expiresAt !== undefined);
  if (!restored?.expiresAt) throw new Error(`${appUrl}${path} restored no session: ${JSON.stringify(await answers())}`);
  return { page, watcher, answers, sessionId: sessionIdOf(session.access_token), expiresAt: restored.expiresAt * 1000 };
}

/**
 * The page landed on its app's sign-in (`heading`, with the sign-in form), after a refresh refused
 * since the revocation: the whole family is revoked, not only the token expired.
 */
async function expectSignedOut(page: Page, heading: string, answers: () => Promise<Answer[]>, revokedAt: number) {
  await expectPage(page, heading);
  await page.getByRole('form', { name: 'Sign in' }).getByLabel('Email').waitFor();
  const lastRefresh = (await answers()).filter((a) => a.path === REFRESH_PATH).at(-1);
  expect(lastRefresh?.status).toBe(401);
  expect(lastRefresh!.at).toBeGreaterThanOrEqual(revokedAt);
}

const dashboardLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link', { name });

describe('an access token that expires mid-session', () => {
  let browser: Browser;
  const analyst = () => account('DEMO_CLIENT_EMAIL', 'DEMO_CLIENT_PASSWORD');
  const admin = () => ({ ...account('DEMO_ADMIN_EMAIL', 'DEMO_ADMIN_PASSWORD'), totpSecret: demoAdminSecret() });
  const pages = new Map<'analyst' | 'analystSignedOut' | 'admin' | 'adminSignedOut', SignedInPage>();
  const opened = (name: Parameters<typeof pages.get>[0]): SignedInPage => {
    const signedIn = pages.get(name);
    if (!signedIn) throw new Error(`the ${name} page did not open`);
    return signedIn;
  };

  beforeAll(async () => {
    browser = await launchChromium();
    const screening = ['/dashboard/screening/api-screen', 'Entity Screening'] as const;
    pages.set('analyst', await openSignedIn(browser, analyst(), WEB_URL, ...screening));
    pages.set('analystSignedOut', await openSignedIn(browser, analyst(), WEB_URL, ...screening));
    const adminHome = ['/dashboard/admin', 'Admin Dashboard'] as const;
    pages.set('admin', await openSignedIn(browser, admin(), ADMIN_URL, ...adminHome));
    pages.set('adminSignedOut', await openSignedIn(browser, admin(), ADMIN_URL, ...adminHome));
    // One wait for all four: until every service, the gateway with its tolerance too, refuses the last token.
    const lastExpiry = Math.max(...[...pages.values()].map((p) => p.expiresAt));
    await new Promise((resolve) => setTimeout(resolve, lastExpiry + GATEWAY_CLOCK_TOLERANCE_MS + 1_000 - Date.now()));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('an analyst screens on Entity Screening and opens Screening Logs without being asked to sign in', async () => {
    const { page, watcher, answers, expiresAt } = opened('analyst');
    await expectPage(page, 'Entity Screening');
    const name = `Expiry Probe ${Date.now().toString(36)}`;
    const screened = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/screen' && r.status() === 200);
    await page.getByLabel(/Entity name/).fill(name);
    await page.getByRole('button', { name: 'Start Screening' }).click();
    await screened;
    await page.getByTestId('clear-panel').or(page.getByTestId('screen-result').first()).waitFor({ timeout: 20_000 });
    await expectPage(page, 'Entity Screening');
    expect(await page.getByText('Your session has expired. Please sign in again.').count()).toBe(0);

    await dashboardLink(page, 'Screening Logs').click();
    await expectPage(page, 'Screening Logs');
    // A screening is logged before it is answered: it is in the log, read with the refreshed token.
    await page.getByRole('cell', { name, exact: true }).waitFor({ timeout: 15_000 });

    expectCarriedOnPastExpiry(await answers(), expiresAt);
    expectNoPageErrors(watcher);
  });

  it('an analyst whose session was signed out elsewhere lands on the sign-in page at the next page they open', async () => {
    const { page, sessionId, answers } = opened('analystSignedOut');
    await revokeFromElsewhere(analyst(), sessionId);
    const revokedAt = Date.now();
    await dashboardLink(page, 'Screening Logs').click();
    await expectSignedOut(page, HEADINGS.login, answers, revokedAt);
  });

  it('an administrator refreshes the security logs in the admin console without being asked to sign in', async () => {
    const { page, watcher, answers, expiresAt } = opened('admin');
    await expectPage(page, 'Admin Dashboard');
    const logs = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/client/admin/logs' && r.status() === 200,
    );
    await page.locator('#security-logs').getByRole('button', { name: 'Refresh' }).click();
    await logs;
    await expectPage(page, 'Admin Dashboard');
    expectCarriedOnPastExpiry(await answers(), expiresAt);
    expectNoPageErrors(watcher);
  });

  it('an administrator whose session was signed out elsewhere lands on the console sign-in at the next action', async () => {
    const { page, sessionId, answers } = opened('adminSignedOut');
    await revokeFromElsewhere(admin(), sessionId);
    const revokedAt = Date.now();
    await page.locator('#security-logs').getByRole('button', { name: 'Refresh' }).click();
    await expectSignedOut(page, HEADINGS.adminSignIn, answers, revokedAt);
  });
});
