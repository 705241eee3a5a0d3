import type { Browser, Page, Route } from 'playwright-core';
import {
  createSubscribedUser,
  launchChromium,
  signInWithRefreshToken,
  uniqueEmail,
  WEB_URL,
  openWatchedPage,
  expectNoPageErrors,
  type PageWatcher,
  expectPage,
  HEADINGS,
} from './browser.js';

// Error and edge states only: the gateway's answers are replaced with failures to see how the app copes.
describe('guards and pages when the backend fails', () => {
  let browser: Browser;
  let page: Page;
  let watcher: PageWatcher;

  beforeAll(async () => {
    browser = await launchChromium();
    ({ page, watcher } = await openWatchedPage(browser));
    // Subscribed, so a check that finally succeeds lets the reader in; the failures are made in the browser.
    const session = await createSubscribedUser(uniqueEmail('guards'), 'Vigil-e2e-Guards-Passphrase-7');
    await signInWithRefreshToken(page, session.refresh_token);
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    expectNoPageErrors(watcher);
  });

  it('retries a failing subscription check three times (1 s, 2 s, 3 s), then says so and goes to /onboarding', async () => {
    const seen: number[] = [];
    const failCheck = (route: Route) => {
      seen.push(Date.now());
      return route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ detail: 'down', code: 'SERVICE_UNAVAILABLE' }),
      });
    };
    await page.route('**/api/payment/subscription', failCheck);
    await page.goto(`${WEB_URL}/account`);
    await page.getByText('Checking access...', { exact: true }).waitFor();
    for (const n of [1, 2, 3])
      await page.getByText(`Retrying access check (${n}/3)...`, { exact: true }).waitFor({ timeout: 8_000 });
    await page
      .getByText('Unable to verify subscription status. Please try again.', { exact: true })
      .waitFor({ timeout: 8_000 });
    await page.waitForURL(`${WEB_URL}/onboarding`);
    await expectPage(page, HEADINGS.onboarding);
    // The first check and three retries; the waits between them grow 1 s, 2 s, 3 s.
    const gaps = seen.slice(1, 4).map((t, i) => t - seen[i]!);
    expect(gaps.length).toBe(3);
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(1900);
    expect(gaps[2]).toBeGreaterThanOrEqual(2900);
    await page.unroute('**/api/payment/subscription', failCheck);
  });

  it('lets a subscriber in when the subscription check fails twice and then answers', async () => {
    // Start from a page that makes no subscription check, so only /account's checks are counted.
    await page.goto(`${WEB_URL}/privacy-policy`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.privacyPolicy);
    let calls = 0;
    const failTwice = (route: Route) => {
      calls++;
      if (calls <= 2) {
        return route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          body: JSON.stringify({ detail: 'down', code: 'SERVICE_UNAVAILABLE' }),
        });
      }
      return route.continue();
    };
    await page.route('**/api/payment/subscription', failTwice);
    await page.goto(`${WEB_URL}/account`);
    await page.getByText('Retrying access check (1/3)...', { exact: true }).waitFor({ timeout: 8_000 });
    await page.getByText('Retrying access check (2/3)...', { exact: true }).waitFor({ timeout: 8_000 });
    await expectPage(page, HEADINGS.account);
    await page.getByRole('heading', { name: 'Usage this month' }).waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${WEB_URL}/account`);
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(
      await page.getByText('Unable to verify subscription status. Please try again.', { exact: true }).count(),
    ).toBe(0);
    await page.unroute('**/api/payment/subscription', failTwice);
  });

  it('keeps looking for the new client every 3 s on /payment/success while the payment is being recorded', async () => {
    const lookups: number[] = [];
    const notYet = (route: Route) => {
      lookups.push(Date.now());
      return route.fulfill({
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({ detail: 'Client not found', code: 'NOT_FOUND' }),
      });
    };
    await page.route('**/api/payment/client-by-email/**', notYet);
    await page.goto(`${WEB_URL}/payment/success?session_id=cs_test_edge`);
    await expectPage(page, HEADINGS.paymentSuccess);
    await page.getByRole('list', { name: 'Processing' }).waitFor();
    await page.waitForTimeout(8_000);
    // First lookup after 1.5 s, then one every 3 s.
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    expect(lookups[1]! - lookups[0]!).toBeGreaterThanOrEqual(2900);
    expect(await page.getByText('Payment successful', { exact: true }).isVisible()).toBe(true);
    await page.unroute('**/api/payment/client-by-email/**', notYet);
  });

  it('sends Back from a payment page to /dashboard (and on to onboarding for an account without a plan)', async () => {
    // Let this page finish restoring the session: each full load rotates the refresh token, and a second
    // load that starts before the first one stored its new token presents a spent one, which the auth
    // service treats as theft and answers by ending the session.
    await page.goto(`${WEB_URL}/privacy-policy`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.privacyPolicy);
    await page.goto(`${WEB_URL}/payment/cancel`);
    await expectPage(page, HEADINGS.paymentCancel);
    await page.goBack();
    await page.waitForURL(/\/(dashboard|onboarding)$/);
    await expectPage(page, page.url().endsWith('/dashboard') ? HEADINGS.dashboard : HEADINGS.onboarding);
    expect(page.url()).not.toContain('/privacy-policy');
  });
});
