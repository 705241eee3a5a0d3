import type { Browser, Page } from 'playwright-core';
import {
  createConfirmedUser,
  createSubscribedUser,
  GATEWAY_URL,
  launchChromium,
  saveScreenshotAt,
  signInWithRefreshToken,
  uniqueEmail,
  watchPage,
  WEB_URL,
} from './browser.js';

const PASSWORD = 'part1-fixes-passphrase';

/** Issue #20's list of part 1 defects, each as a new user meets it. */
describe('part 1 screens, as tried by a new user', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function signedInPage(refreshToken: string, width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signInWithRefreshToken(page, refreshToken);
    return page;
  }

  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  it('fits /account and /dashboard in 375 px', async () => {
    const session = await createSubscribedUser(uniqueEmail('narrow'), PASSWORD, 'medium');
    const page = await signedInPage(session.refresh_token, 375);
    const watcher = watchPage(page);
    await page.goto(`${WEB_URL}/account`);
    await page.getByRole('heading', { level: 1, name: 'Account & billing' }).waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await saveScreenshotAt(page, 'part1-account-375', 375);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.goto(`${WEB_URL}/dashboard`);
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await saveScreenshotAt(page, 'part1-dashboard-375', 375);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(watcher.problems.consoleErrors).toEqual([]);
    expect(watcher.problems.failedRequests).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('asks before an upgrade charges, naming the amount; Cancel charges nothing', async () => {
    const session = await createSubscribedUser(uniqueEmail('upgrade-confirm'), PASSWORD, 'small');
    const page = await signedInPage(session.refresh_token);
    const upgrades: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/upgrade/upgrade') upgrades.push(request.method());
    });
    await page.goto(`${WEB_URL}/upgrade`);
    await page.getByRole('heading', { level: 1, name: 'Upgrade Your Plan' }).waitFor({ timeout: 20_000 });
    await page.getByRole('radio', { name: /Large/ }).click();
    await page.getByText('Days remaining', { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Upgrade Now' }).click();
    const dialog = page.getByRole('dialog');
    const amount = (await dialog.getByTestId('upgrade-amount').innerText()).trim();
    expect(amount).toMatch(/^\$[\d,]+\.\d{2}$/);
    expect(await dialog.getByRole('button', { name: `Pay ${amount} and upgrade` }).isVisible()).toBe(true);
    await saveScreenshotAt(page, 'part1-upgrade-confirmation', 1280);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForTimeout(500);
    expect(upgrades).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('keeps the chosen plan through a cancelled payment: Try Again comes back to it', async () => {
    const session = await createConfirmedUser(uniqueEmail('try-again'), PASSWORD);
    const page = await signedInPage(session.refresh_token);
    await page.goto(`${WEB_URL}/onboarding`);
    await page.getByRole('radio', { name: 'Medium' }).click();
    await page.goto(`${WEB_URL}/payment/cancel`);
    await page.getByRole('heading', { level: 1, name: 'Payment cancelled' }).waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Try Again' }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor({ timeout: 20_000 });
    expect(await page.getByText('Medium', { exact: true }).first().isVisible()).toBe(true);
    await page.context().close();
  }, 120_000);

  it('keeps "Email not confirmed" on the sign-in form, naming the address', async () => {
    const email = uniqueEmail('unconfirmed');
    const signup = await fetch(`${GATEWAY_URL}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: 'Unconfirmed',
        email,
        password: PASSWORD,
        confirm_password: PASSWORD,
        accepted_terms: true,
      }),
    });
    expect(signup.ok).toBe(true);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${WEB_URL}/login`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page
      .getByRole('form', { name: 'Sign in' })
      .getByRole('button', { name: /sign in/i })
      .click();
    const notice = page.getByTestId('email-not-confirmed');
    await notice.waitFor({ timeout: 15_000 });
    await page.waitForTimeout(6_000); // longer than a toast lives
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain(email);
    await page.close();
  }, 60_000);

  it('offers a skip-to-content link first and starts a directly opened page at the top with the header shown', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${WEB_URL}/about-us`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.waitForTimeout(300);
    await page.goto(`${WEB_URL}/services`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.getByRole('banner').isVisible()).toBe(true);

    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.textContent?.trim());
    expect(first).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await page.close();
  });
  it('gives an existing subscriber who picks a plan on Pricing the upgrade path, not a checkout', async () => {
    const session = await createSubscribedUser(uniqueEmail('pricing-subscriber'), PASSWORD, 'small');
    const page = await signedInPage(session.refresh_token);
    const checkouts: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/payment/create-checkout-session') checkouts.push(request.method());
    });
    await page.goto(`${WEB_URL}/pricing`);
    await page.getByRole('button', { name: 'Select Plan: Large' }).click();
    const offer = page.getByTestId('already-subscribed');
    await offer.waitFor({ timeout: 15_000 });
    await offer.getByRole('link', { name: 'Upgrade Plan' }).click();
    await page.getByRole('heading', { level: 1, name: 'Upgrade Your Plan' }).waitFor({ timeout: 20_000 });
    expect(checkouts).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('sends "Start Free API Trial" to sales, as the FAQ says trials go', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${WEB_URL}/`);
    await page
      .getByRole('link', { name: /Start Free API Trial/ })
      .first()
      .click();
    await page.waitForURL(/\/about-us#contact$/);
    await page.locator('#contact').getByRole('heading', { name: 'Talk to the right team' }).waitFor();
    await page.close();
  });
});
