import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { totpCode } from '@vigil/platform/testing';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The six services the gateway must report for the platform to be "up". */
export const EXPECTED_SERVICES = ['gateway', 'auth', 'screening', 'monitoring', 'billing', 'audit'] as const;

export const WEB_URL = process.env.WEB_URL ?? 'http://127.0.0.1:3000';
export const ADMIN_URL = process.env.ADMIN_URL ?? 'http://127.0.0.1:3001';

/** How long the status widget may take to turn green: the stack may still be settling, and the widget polls every 10 s. */
export const GREEN_WITHIN_MS = 30_000;

const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh page that fails the test on any uncaught error in the app. */
export async function openPage(browser: Browser, url: string): Promise<{ page: Page; pageErrors: Error[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
  if (response === null || !response.ok()) {
    throw new Error(
      `GET ${url} answered ${response?.status() ?? 'nothing'}; is the app running (npm start, or vite preview)?`,
    );
  }
  return { page, pageErrors };
}

/** The h1 of each web-app page the tests land on, as the pages render it. */
export const HEADINGS = {
  home: 'Screen every name against the lists that matter',
  login: 'Welcome to Vigil',
  forgotPassword: 'Reset your password',
  onboarding: 'Set up your Vigil subscription',
  // "Welcome, <full name>" (or "Welcome" before the profile loads); not the login page's "Welcome to Vigil".
  dashboard: /^Welcome(, .+)?$/,
  account: 'Account & billing',
  upgrade: 'Upgrade Your Plan',
  paymentSuccess: 'Payment successful',
  paymentCancel: 'Payment cancelled',
  privacyPolicy: 'Privacy Policy',
  pricing: 'Plans that grow with your screening volume',
  services: 'Sanctions screening for every point in the customer lifecycle',
  docs: 'Integrate sanctions screening in an afternoon',
  adminSignIn: 'Sign in to the admin console',
  adminCode: 'Two-step verification',
  adminEnrol: 'Set up two-step verification',
  adminDashboard: 'Admin Dashboard',
} as const;

const NOT_FOUND_HEADING = 'Page Not Found';

/**
 * Waits for the page a test expects, known by its h1, and fails on the Not Found page
 * (whatever the URL says: the 404 page renders under any path). `heading` is matched
 * exactly when a string.
 */
export async function expectPage(page: Page, heading: string | RegExp, timeout = 15_000): Promise<void> {
  const expected = page.getByRole('heading', {
    level: 1,
    name: heading,
    ...(typeof heading === 'string' ? { exact: true } : {}),
  });
  const notFound = page.getByRole('heading', { level: 1, name: NOT_FOUND_HEADING, exact: true });
  try {
    await expected.or(notFound).first().waitFor({ timeout });
  } catch {
    const shown = await page
      .getByRole('heading', { level: 1 })
      .allInnerTexts()
      .catch(() => []);
    throw new Error(
      `${page.url()} did not show the page headed "${String(heading)}" within ${timeout} ms (h1: ${JSON.stringify(shown)})`,
    );
  }
  if (await notFound.isVisible())
    throw new Error(`${page.url()} is the Not Found page, not the page headed "${String(heading)}"`);
  expect(await expected.count()).toBe(1);
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Waits until the status widget shows a green verdict, then returns its headline
 * and the visible text of each service row, keyed by service name, so a failed
 * assertion names the service that is not up.
 */
export async function waitForGreenStatus(page: Page): Promise<{ headline: string; rows: Record<string, string> }> {
  const widget = page.getByRole('region', { name: 'System status' });
  const handle = await widget.elementHandle();
  try {
    await page.waitForFunction((element) => element?.getAttribute('data-state') === 'ok', handle, {
      timeout: GREEN_WITHIN_MS,
    });
  } catch {
    const shown = (await widget.getByRole('status').innerText()).replace(/\s+/g, ' ');
    throw new Error(`the status widget did not turn green within ${GREEN_WITHIN_MS} ms; it shows "${shown}"`);
  }
  const rows: Record<string, string> = {};
  for (const row of await widget.getByRole('list', { name: 'Services' }).getByRole('listitem').all()) {
    const name = await row.getAttribute('data-service');
    if (name !== null) rows[name] = (await row.innerText()).replace(/\s+/g, ' ').trim();
  }
  return { headline: await widget.getByTestId('status-headline').innerText(), rows };
}

export const GATEWAY_URL = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

/** What a page did wrong while a test watched it: console errors, uncaught errors and failed requests. */
export type PageProblems = { consoleErrors: string[]; pageErrors: string[]; failedRequests: string[] };

/**
 * Records every console error, uncaught error and failed request (no answer, or
 * an HTTP status of 400 or more) from now on. `reset()` starts a fresh record,
 * so one page can be reused for several pages of the site.
 */
export function watchPage(page: Page): { problems: PageProblems; reset: () => void } {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  page.on('console', (message) => {
    // Chromium also logs every failed request as a console error; those are counted once, as requests.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.consoleErrors.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    // Navigating away cancels pending requests; that is not a failure of the page.
    if (reason !== 'net::ERR_ABORTED') problems.failedRequests.push(`${request.method()} ${request.url()} ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.failedRequests.push(
        `${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`,
      );
    }
  });
  return {
    problems,
    reset: () => {
      problems.consoleErrors.length = 0;
      problems.pageErrors.length = 0;
      problems.failedRequests.length = 0;
    },
  };
}

export type PageWatcher = ReturnType<typeof watchPage>;

/** A desktop-sized page in a context of its own, watched from its first request. */
export async function openWatchedPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; watcher: PageWatcher }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  return { context, page, watcher: watchPage(page) };
}

/** What a user would notice after any test: nothing written to the console as an error, no uncaught error. */
export function expectNoPageErrors(watcher: PageWatcher): void {
  expect(watcher.problems.consoleErrors).toEqual([]);
  expect(watcher.problems.pageErrors).toEqual([]);
}

/**
 * True when the gateway has no route for this path yet (its 404 ROUTE_NOT_FOUND).
 * Tests use it to tell "this backend has not landed" apart from "this backend is broken":
 * only the first is allowed to show the page's error state.
 */
export async function gatewayLacksRoute(path: string, init?: RequestInit): Promise<boolean> {
  const response = await fetch(`${GATEWAY_URL}${path}`, init);
  if (response.status !== 404) return false;
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  return body.code === 'ROUTE_NOT_FOUND';
}

/**
 * Why a public page cannot have its live data yet: the route does not exist
 * (404 ROUTE_NOT_FOUND) or it is not public (401 for an anonymous visitor).
 * Answers the status to expect, or null when the route serves anonymous visitors.
 */
export async function publicRouteUnavailable(path: string): Promise<404 | 401 | null> {
  if (await gatewayLacksRoute(path)) return 404;
  const response = await fetch(`${GATEWAY_URL}${path}`);
  return response.status === 401 ? 401 : null;
}

export async function saveScreenshotAt(page: Page, name: string, width: number): Promise<string> {
  await page.setViewportSize({ width, height: 900 });
  // From the top, so the fixed header sits where a reader first sees it; then let layout settle.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.waitForTimeout(350);
  return saveScreenshot(page, name);
}

/**
 * The newest message the auth service's mailbox transport stored for an address, waiting for it
 * to arrive. Read from its table, as the recipient would read an inbox: the /auth/v1/dev/mailbox
 * route is for an administrator of a development stack, and these tests act as nobody in particular.
 */
export async function readMailbox(
  to: string,
  subjectPattern: RegExp,
  timeoutMs = 15_000,
): Promise<{ subject: string; text: string }> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: the browser tests read mail from the auth schema');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ subject: string; text: string }>(
        'SELECT subject, text_body AS text FROM auth.mailbox WHERE recipient = $1 ORDER BY created_at DESC, id LIMIT 20',
        [to.toLowerCase()],
      );
      const found = rows.find((message) => subjectPattern.test(message.subject));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } finally {
    await client.end();
  }
  throw new Error(`no message matching ${subjectPattern} reached ${to} within ${timeoutMs} ms`);
}

/** The first link in a mail that points at the given web-app path, moved onto the app under test. */
export function linkFromMail(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]+${path.replace(/[/?]/g, '\\$&')}[^\\s"'<>]*`).exec(text);
  if (!match) throw new Error(`the mail has no ${path} link:\n${text}`);
  const link = new URL(match[0]);
  return `${WEB_URL}${link.pathname}${link.search}`;
}

/** A unique address per run, so tests never collide with data an earlier run left behind. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * A confirmed customer account made through the real auth service (sign-up,
 * the confirmation mail, verify), answering the session it starts.
 */
export async function createConfirmedUser(
  email: string,
  password: string,
): Promise<{ refresh_token: string; access_token: string }> {
  const signup = await fetch(`${GATEWAY_URL}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      full_name: 'E2E Customer',
      email,
      password,
      confirm_password: password,
      accepted_terms: true,
    }),
  });
  if (!signup.ok) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const mail = await readMailbox(email, /confirm/i);
  const token = new URL(linkFromMail(mail.text, '/login?type=signup')).searchParams.get('token');
  const verify = await fetch(`${GATEWAY_URL}/auth/v1/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'signup', token }),
  });
  if (!verify.ok) throw new Error(`verify answered ${verify.status}: ${await verify.text()}`);
  return (await verify.json()) as { refresh_token: string; access_token: string };
}

/** A password sign-in at the gateway, as another device or a script would make one; `extra` adds fields (an MFA code). */
export function passwordGrant(email: string, password: string, extra: object = {}): Promise<Response> {
  return fetch(`${GATEWAY_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', email, password, ...extra }),
  });
}

/**
 * Opens an app (the web app unless told) already signed in: the stored refresh token is what a reload
 * restores a session from. The token is put in place from a static file of the same origin, where the
 * app is not running: a running app could pick it up and spend it while the next page load spends it
 * too, which the auth service treats as theft.
 */
export async function signInWithRefreshToken(page: Page, refreshToken: string, appUrl = WEB_URL): Promise<void> {
  await page.goto(`${appUrl}/favicon.svg`);
  await page.evaluate((token) => sessionStorage.setItem('vigil.auth.refresh', token), refreshToken);
}

/**
 * A confirmed customer with an active subscription, bought through the real
 * gateway and the sandbox payment provider (the same calls onboarding makes).
 */
export async function createSubscribedUser(
  email: string,
  password: string,
  tier: 'starter' | 'small' | 'medium' | 'large' = 'starter',
): Promise<{ refresh_token: string; access_token: string }> {
  const session = await createConfirmedUser(email, password);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` };
  const checkout = await fetch(`${GATEWAY_URL}/api/payment/create-checkout-session`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ tier, clientEmail: email }),
  });
  if (!checkout.ok) throw new Error(`create-checkout-session answered ${checkout.status}: ${await checkout.text()}`);
  const { url } = (await checkout.json()) as { url: string };
  const sessionId = new URL(url).searchParams.get('session_id');
  if (!sessionId) throw new Error(`the checkout URL has no session_id: ${url}`);
  const paid = await fetch(`${GATEWAY_URL}/api/payment/sandbox/sessions/${encodeURIComponent(sessionId)}/complete`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ cardNumber: '4242424242424242' }),
  });
  if (!paid.ok) throw new Error(`sandbox checkout answered ${paid.status}: ${await paid.text()}`);
  // The payment is recorded asynchronously: wait until billing says the subscription is active.
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const check = await fetch(`${GATEWAY_URL}/api/payment/subscription`, { headers });
    if (check.ok && ((await check.json()) as { hasSubscription: boolean }).hasSubscription) return session;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${email} has no active subscription 15 s after paying`);
}

/** The loopback OpenID provider standing in for Google (started by infra/scripts/browser-tests.mjs). */
export function oidcProviderUrl(): string {
  const url = process.env.OIDC_PROVIDER_URL;
  if (!url) {
    throw new Error(
      'OIDC_PROVIDER_URL is not set: run the browser tests through infra/scripts/browser-tests.mjs (or npm test)',
    );
  }
  return url;
}

/**
 * axe-core in the page: violations of impact serious or critical, by rule id and target. The
 * source is evaluated rather than added as a script tag: the app's CSP (script-src 'self')
 * rightly refuses an inline tag, and the test must not loosen the policy it runs under.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** The demo admin's authenticator secret (every admin route needs aal2; infra/scripts/browser-tests.mjs). */
export function demoAdminSecret(): string {
  const secret = process.env.DEMO_ADMIN_TOTP_SECRET;
  if (!secret) throw new Error('DEMO_ADMIN_TOTP_SECRET is not set: run through infra/scripts/browser-tests.mjs');
  return secret;
}

/**
 * Codes to try, freshest first: auth accepts the current 30 s step's code and its neighbours', each
 * step once, so after several sign-ins in a row the next step's is the one still unused.
 */
function candidateCodes(secret: string): string[] {
  return [30_000, 0, -30_000].map((offset) => totpCode(secret, Date.now() + offset));
}

const untilNextStep = () => new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 500));

/** A password session raised to aal2 through the gateway's factor routes, as the console does it. */
export async function raiseWithCode<
  S extends { access_token: string; user: { factors: { id: string; status: string }[] } },
>(session: S, secret: string): Promise<S> {
  const factor = session.user.factors.find((f) => f.status === 'verified');
  if (!factor) throw new Error('the account has no verified authenticator');
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` };
  const factorUrl = `${GATEWAY_URL}/auth/v1/factors/${factor.id}`;
  for (let round = 0; round < 2; round++) {
    for (const code of candidateCodes(secret)) {
      const challenge = await fetch(`${factorUrl}/challenge`, { method: 'POST', headers });
      const { id } = (await challenge.json()) as { id: string };
      const verified = await fetch(`${factorUrl}/verify`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ challenge_id: id, code }),
      });
      if (verified.ok) return (await verified.json()) as S;
    }
    await untilNextStep();
  }
  throw new Error('no code of the authenticator was accepted');
}

/** The console's code step: enters codes until the console moves on to `next` (a heading). */
export async function enterAdminCode(page: Page, secret: string, next: string = HEADINGS.adminDashboard) {
  await expectPage(page, HEADINGS.adminCode);
  for (let round = 0; round < 2; round++) {
    for (const code of candidateCodes(secret)) {
      await page.getByLabel('Authentication code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      const outcome = await Promise.race([
        page
          .getByRole('heading', { level: 1, name: next, exact: true })
          .waitFor({ timeout: 15_000 })
          .then(() => 'next' as const),
        page
          .locator('#mfa-code-error')
          .waitFor({ timeout: 15_000 })
          .then(() => 'refused' as const),
      ]);
      if (outcome === 'next') return;
    }
    await untilNextStep();
  }
  throw new Error('the console accepted no code of the authenticator');
}
