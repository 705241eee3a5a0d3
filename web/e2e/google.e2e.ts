import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  createSubscribedUser,
  launchChromium,
  oidcProviderUrl,
  uniqueEmail,
  WEB_URL,
  openWatchedPage,
  expectNoPageErrors,
  type PageWatcher,
  expectPage,
  HEADINGS,
} from './browser.js';

/**
 * "Continue with Google" in a real browser against a real OpenID provider on
 * loopback (oidc-provider, standing in for Google): the redirect with PKCE, the
 * provider's own sign-in and consent pages, back to /auth/callback, and the
 * landing page the spec's redirect rules choose.
 */
describe('Continue with Google', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watcher: PageWatcher;
  let visited: string[];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  beforeEach(async () => {
    ({ context, page, watcher } = await openWatchedPage(browser));
    visited = [];
    // Every top-level navigation, redirects included.
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) visited.push(request.url());
    });
  });

  afterEach(async () => {
    expectNoPageErrors(watcher);
    expect(watcher.problems.failedRequests).toEqual([]);
    await context.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Clicks Continue with Google and plays the person on the provider's sign-in and consent pages. */
  async function continueWithGoogle(email: string, name: string): Promise<void> {
    await page.goto(`${WEB_URL}/login`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL(`${oidcProviderUrl()}/interaction/**`);
    await page.getByRole('heading', { name: 'Sign in with Google' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Vigil wants to access your Google Account' }).waitFor();
    await page.getByRole('button', { name: 'Allow' }).click();
  }

  it('signs a new person in through the provider and, with no plan yet, lands on /onboarding', async () => {
    const email = uniqueEmail('google-new');
    await continueWithGoogle(email, 'Ada Google');
    await page.waitForURL(`${WEB_URL}/onboarding`, { timeout: 15_000 });
    await expectPage(page, HEADINGS.onboarding);

    // The provider asked with PKCE and sent the browser back to the app's callback with a code.
    const authorize = new URL(visited.find((url) => url.startsWith(`${oidcProviderUrl()}/auth?`))!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${WEB_URL}/auth/callback`);
    const callback = visited.find((url) => url.startsWith(`${WEB_URL}/auth/callback?`));
    expect(callback).toBeDefined();
    expect(new URL(callback!).searchParams.get('code')).toBeTruthy();

    // Signed in as that person: onboarding's payment step bills the address the provider gave.
    await page.getByRole('radio', { name: 'Starter' }).click();
    await page.getByRole('button', { name: /Proceed to Payment/ }).click();
    await page.getByText(email.toLowerCase(), { exact: true }).waitFor();
  });

  it('welcomes back a customer with an active subscription and takes them to the screening dashboard', async () => {
    const email = uniqueEmail('google-customer');
    await createSubscribedUser(email, 'Vigil-e2e-Google-Passphrase-3', 'large');
    // Same verified address at the provider: auth links Google to the existing account.
    await continueWithGoogle(email, 'Returning Customer');
    await page.getByText('Welcome Back!', { exact: true }).waitFor({ timeout: 15_000 });
    // Waited for, not read once: the toast moves from the public layout's toaster to the
    // dashboard's as the redirect renders, and is absent for a few milliseconds in between.
    await page
      .getByText('You already have an active subscription. Redirecting to dashboard...', { exact: true })
      .waitFor({ timeout: 15_000 });
    await page.waitForURL(`${WEB_URL}/dashboard/screening/api-screen`, { timeout: 15_000 });
    await expectPage(page, 'Entity Screening');
  });

  it('sends Back from /auth/callback to /dashboard rather than to the spent callback', async () => {
    await continueWithGoogle(uniqueEmail('google-back'), 'Back Button');
    await page.waitForURL(`${WEB_URL}/onboarding`, { timeout: 15_000 });
    await expectPage(page, HEADINGS.onboarding);
    await page.goBack();
    await page.waitForURL(/\/(dashboard|onboarding)$/, { timeout: 10_000 });
    expect(page.url()).not.toContain('/auth/callback');
    // Without a plan, /dashboard sends the visitor on to onboarding: its account summary answers 404.
    await expectPage(page, HEADINGS.onboarding);
    expectNoPageErrors(watcher);
    expect(watcher.problems.failedRequests.filter((f) => f !== 'GET /api/settings/account-summary 404')).toEqual([]);
    watcher.reset();
  });
});
