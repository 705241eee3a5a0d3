import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import {
  createSubscribedUser,
  launchChromium,
  saveScreenshot,
  signInWithRefreshToken,
  uniqueEmail,
  WEB_URL,
  openWatchedPage,
  expectNoPageErrors,
  type PageWatcher,
  expectPage,
  HEADINGS,
} from './browser.js';

const PASSWORD = 'Vigil-e2e-Mfa-Passphrase-5';

/** The authenticator app, in the test: the same TOTP parameters the auth service uses. */
function authenticator(secret: string): TOTP {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/**
 * Two-step sign-in against the real auth service: enrol an authenticator app on
 * /account with a code computed from the secret the page shows, sign out, sign
 * in with the password, and only the code step completes the sign-in.
 */
describe('sign-in with an authenticator app (TOTP)', () => {
  let browser: Browser;
  let page: Page;
  let watcher: PageWatcher;
  const email = uniqueEmail('mfa');
  let app: TOTP;

  beforeAll(async () => {
    browser = await launchChromium();
    ({ page, watcher } = await openWatchedPage(browser));
    const session = await createSubscribedUser(email, PASSWORD);
    await signInWithRefreshToken(page, session.refresh_token);
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    expectNoPageErrors(watcher);
  });

  it('enrols an authenticator app on /account with the secret the page shows', async () => {
    await page.goto(`${WEB_URL}/account`);
    await expectPage(page, HEADINGS.account);
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (
      await page
        .locator('code')
        .filter({ hasText: /^[A-Z2-7]+$/ })
        .innerText()
    ).trim();
    app = authenticator(secret);
    await page.getByLabel('6-digit code').fill(app.generate());
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByText('Enabled · 1 authenticator', { exact: true }).waitFor();
    await page.getByText('Save your recovery codes — they are shown once.', { exact: true }).waitFor();
  });

  /** Signs out, then signs in with the password as far as the code step. */
  async function signOutAndEnterPassword() {
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expectPage(page, 'Two-step verification');
  }

  it('asks for the code after the password, refuses a wrong one, and signs in with the right one', async () => {
    await signOutAndEnterPassword();

    // The code step: the password alone signs nobody in, and nothing is stored yet.
    const step = page.getByRole('form', { name: 'Two-step verification' });
    expect(await step.getByLabel('Authentication code').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(
      await page.evaluate(() =>
        [...Object.keys(sessionStorage), ...Object.keys(localStorage)].filter((k) => k.startsWith('vigil.auth')),
      ),
    ).toEqual([]);

    // A wrong code (none of the codes valid around now): a clear message, still on the code step.
    const valid = new Set([-30_000, 0, 30_000].map((offset) => app.generate({ timestamp: Date.now() + offset })));
    let wrong = '000000';
    while (valid.has(wrong)) wrong = String((Number(wrong) + 1) % 1_000_000).padStart(6, '0');
    await step.getByLabel('Authentication code').fill(wrong);
    await step.getByRole('button', { name: 'Verify' }).click();
    await step
      .getByText('That code is not valid. Check your authenticator app and enter the current code.', { exact: true })
      .waitFor();
    await saveScreenshot(page, 'mfa-wrong-code');
    expect(page.url()).toBe(`${WEB_URL}/login`);

    // Too short is caught before sending.
    await step.getByLabel('Authentication code').fill('123');
    await step.getByRole('button', { name: 'Verify' }).click();
    await step.getByText('Enter the 6-digit code from your authenticator app.', { exact: true }).waitFor();

    // The right code. Each time step's code works once and enrolment spent the current one, so use the next step's.
    await step.getByLabel('Authentication code').fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await step.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${WEB_URL}/dashboard/screening/api-screen`, { timeout: 15_000 });
    await page.getByText('Welcome back!', { exact: true }).waitFor();
    // Sign-in sends a subscriber to /dashboard/screening/api-screen, which renders the Not Found page
    // until the screening dashboard (issue #20) lands; so the test asserts the page it can, /dashboard.
    // When api-screen is a real page, assert its heading here instead (note for the lead).
    await page.goto(`${WEB_URL}/dashboard`);
    await expectPage(page, HEADINGS.dashboard);

    // Signed in at full strength: /account (which needs the second factor at the server) loads.
    await page.goto(`${WEB_URL}/account`);
    await expectPage(page, HEADINGS.account);
    await page.getByRole('heading', { name: 'Usage this month' }).waitFor();
    await page.getByText('Enabled · 1 authenticator', { exact: true }).waitFor();
  });

  it('Back to Sign In on the code step leaves nobody signed in', async () => {
    await signOutAndEnterPassword();
    await page.getByRole('button', { name: 'Back to Sign In' }).click();
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    await page.goto(`${WEB_URL}/account`);
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
  });
});
