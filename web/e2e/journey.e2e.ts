import type { Browser, Page } from 'playwright-core';
import { gatewayLacksRoute, launchChromium, linkFromMail, readMailbox, saveScreenshot, uniqueEmail, watchPage, WEB_URL, expectPage, HEADINGS } from './browser.js';

/** Where the services send browsers when their WEB_URL is left at its default. */
const SERVICES_DEFAULT_WEB_URL = 'http://localhost:3000';

const PASSWORD = 'Vigil-e2e-Journey-Passphrase-9';

/**
 * A new customer's whole journey against the real stack with the sandbox payment
 * provider. The billing routes it needs are checked first: while they do not
 * exist, the test proves the screens say so honestly and stops there.
 */
describe('a new customer from Pricing to an upgrade', () => {
  let browser: Browser;
  let page: Page;
  let watcher: ReturnType<typeof watchPage>;
  const email = uniqueEmail('customer');

  beforeAll(async () => {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: WEB_URL });
    // The billing service builds checkout and success URLs from its WEB_URL; when the stack leaves it at the
    // default while the app under test runs elsewhere, send those navigations to the app under test.
    if (new URL(WEB_URL).origin !== SERVICES_DEFAULT_WEB_URL) {
      await context.route(`${SERVICES_DEFAULT_WEB_URL}/**`, (route) => {
        const url = new URL(route.request().url());
        return route.fulfill({ status: 302, headers: { location: `${WEB_URL}${url.pathname}${url.search}` } });
      });
    }
    page = await context.newPage();
    watcher = watchPage(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('chooses a plan, signs up, confirms, pays, connects the key, sees usage, upgrades and signs out', async () => {
    const missing: string[] = [];
    for (const [path, init] of [
      ['/api/v1/plans', undefined],
      ['/api/payment/create-checkout-session', { method: 'POST' }],
      ['/api/upgrade/options', undefined],
    ] as const) {
      if (await gatewayLacksRoute(path, init)) missing.push(path);
    }

    await page.goto(`${WEB_URL}/pricing`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.pricing);
    if (missing.includes('/api/v1/plans')) {
      // Waiting for the plan catalogue: Pricing must show its error state, not invented plans.
      await page.getByText('The plan catalogue could not be loaded', { exact: true }).waitFor();
      expect(await page.locator('[data-tier]').count()).toBe(0);
      console.warn(`journey stops at Pricing: the gateway has no ${missing.join(', ')} yet`);
      return;
    }

    // Pricing → Select Plan (medium, the Most Popular) → Go to Login.
    await page.locator('[data-tier]').first().waitFor();
    expect(await page.locator('[data-tier]').count()).toBe(4);
    expect(await page.locator('[data-tier="medium"]').innerText()).toContain('Most Popular');
    await page.getByRole('radio', { name: /Yearly/ }).click();
    await page.getByRole('radio', { name: /Monthly/ }).click();
    await page.getByRole('button', { name: 'Select Plan: Medium' }).click();
    await page.getByRole('button', { name: 'Go to Login' }).click();
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);

    // Sign up, then confirm with the real message from the dev mailbox.
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const signUp = page.getByRole('form', { name: 'Sign up' });
    await signUp.getByLabel('Full name').fill('Journey Customer');
    await signUp.getByLabel('Email').fill(email);
    await signUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signUp.getByLabel('Confirm password').fill(PASSWORD);
    await signUp.getByRole('checkbox', { name: /I agree/ }).click();
    await signUp.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Account created! Please check your email to confirm your account.', { exact: true }).first().waitFor();
    const mail = await readMailbox(email, /confirm/i);
    await page.goto(linkFromMail(mail.text, '/login?type=signup'));
    await page.waitForURL(`${WEB_URL}/onboarding`, { timeout: 15_000 });
    await expectPage(page, HEADINGS.onboarding);
    // Onboarding remembers the plan chosen on Pricing.
    await page.getByRole('radio', { name: 'Medium' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Medium' }).getAttribute('aria-checked')).toBe('true');

    // Sign out (which forgets everything, the chosen plan too) and in again with the password, as the journey says.
    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
    const signIn = page.getByRole('form', { name: 'Sign in' });
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${WEB_URL}/onboarding`, { timeout: 15_000 });
    await expectPage(page, HEADINGS.onboarding);

    await page.getByRole('radio', { name: 'Medium' }).click();
    await page.getByRole('button', { name: /Proceed to Payment/ }).click();
    if (missing.includes('/api/payment/create-checkout-session')) {
      await page.getByRole('button', { name: /Continue to Payment/ }).click();
      await page.getByText('Unable to start checkout process. Please try again.', { exact: true }).waitFor();
      console.warn(`journey stops at checkout: the gateway has no ${missing.join(', ')} yet`);
      return;
    }
    // The organisation named here becomes the client's name (not its e-mail address).
    await page.getByLabel('Organisation name (optional)').fill('Journey Test Bank');
    await page.getByRole('button', { name: /Continue to Payment/ }).click();

    // The sandbox provider's checkout, then /payment/success with the new key.
    await page.waitForURL(/\/payment\/(checkout|success)/, { timeout: 15_000 });
    if (page.url().includes('/payment/checkout')) {
      await page.getByRole('button', { name: /^Pay / }).click();
    }
    await page.waitForURL(/\/payment\/success\?session_id=/, { timeout: 15_000 });
    await expectPage(page, HEADINGS.paymentSuccess);
    const keyBox = page.getByTestId('new-api-key');
    await keyBox.waitFor({ timeout: 30_000 });
    const apiKey = (await keyBox.innerText()).trim();
    expect(apiKey).toMatch(/^[0-9a-f]{64}$/);
    await saveScreenshot(page, 'journey-payment-success');

    // /dashboard needs no key pasted back: the session is enough, and the card names the key by its prefix.
    await page.goto(`${WEB_URL}/dashboard`);
    await expectPage(page, HEADINGS.dashboard);
    await page.waitForFunction(() => document.querySelector('[data-testid=api-key-status]')?.getAttribute('data-status') === 'active', undefined, { timeout: 15_000 });
    expect(await page.getByTestId('api-key-status').innerText()).toBe('Active');
    await page.getByText(apiKey.slice(0, 8), { exact: false }).first().waitFor();
    await saveScreenshot(page, 'journey-dashboard');

    // /account shows the plan and this month's usage.
    await page.goto(`${WEB_URL}/account`);
    await expectPage(page, HEADINGS.account);
    await page.getByRole('heading', { name: 'Usage this month' }).waitFor();
    expect(await page.getByTestId('usage-percent').innerText()).toMatch(/^\d+%$/);
    await saveScreenshot(page, 'journey-account');

    // /upgrade previews and performs an upgrade to Large.
    await page.goto(`${WEB_URL}/upgrade`);
    await expectPage(page, HEADINGS.upgrade);
    await page.getByRole('radio', { name: /Large/ }).click();
    await page.getByText('Upgrade Summary', { exact: true }).waitFor();
    await page.getByText('Days remaining', { exact: true }).waitFor();
    await saveScreenshot(page, 'journey-upgrade');
    await page.getByRole('button', { name: 'Upgrade Now' }).click();
    // Nothing is charged before a confirmation that names the amount.
    const amount = (await page.getByTestId('upgrade-amount').innerText()).trim();
    expect(amount).toMatch(/^\$[\d,]+\.\d{2}$/);
    await page.getByRole('button', { name: `Pay ${amount} and upgrade` }).click();
    await page.getByText('Upgrade Successful!', { exact: true }).waitFor({ timeout: 15_000 });
    await expectPage(page, "You're on the Large Plan!");
    await page.goto(`${WEB_URL}/dashboard/screening/settings`);
    await expectPage(page, 'Account Settings');
    await page.getByText('Journey Test Bank', { exact: true }).first().waitFor({ timeout: 15_000 });

    // Sign out clears every stored trace, the API key included.
    await page.goto(`${WEB_URL}/account`);
    await expectPage(page, HEADINGS.account);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
    const stored = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) => k.startsWith('vigil.')));
    expect(stored).toEqual([]);

    // Signing in again with an active subscription: a welcome toast, then the screening dashboard.
    const again = page.getByRole('form', { name: 'Sign in' });
    await again.getByLabel('Email').fill(email);
    await again.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await again.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${WEB_URL}/dashboard/screening/api-screen`, { timeout: 15_000 });
    await page.getByText('Welcome back!', { exact: true }).waitFor();
    // Sign-in sends a subscriber to /dashboard/screening/api-screen, which renders the Not Found page
    // until the screening dashboard (issue #20) lands; so the test asserts the page it can, /dashboard.
    // When api-screen is a real page, assert its heading here instead (note for the lead).
    await page.goto(`${WEB_URL}/dashboard`);
    await expectPage(page, HEADINGS.dashboard);
    expect(watcher.problems.pageErrors).toEqual([]);
    expect(watcher.problems.consoleErrors).toEqual([]);
  });
});
