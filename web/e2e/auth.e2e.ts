import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  linkFromMail,
  readMailbox,
  uniqueEmail,
  WEB_URL,
  openWatchedPage,
  expectNoPageErrors,
  type PageWatcher,
  expectPage,
  HEADINGS,
} from './browser.js';

const PASSWORD = 'Vigil-e2e-Passphrase-42';

describe('sign-up, sign-in, guards and sign-out against the real auth service', () => {
  let browser: Browser;
  let page: Page;
  let watcher: PageWatcher;
  const email = uniqueEmail('journey');

  beforeAll(async () => {
    browser = await launchChromium();
    ({ page, watcher } = await openWatchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    expectNoPageErrors(watcher);
  });

  it('sends an anonymous visitor from each guarded page to /login', async () => {
    for (const path of ['/dashboard', '/onboarding', '/account', '/upgrade', '/dashboard/admin', '/payment/success']) {
      await page.goto(`${WEB_URL}${path}`);
      await page.waitForURL(`${WEB_URL}/login`);
      await expectPage(page, HEADINGS.login);
    }
    expect(await page.title()).toBe('Sign In · Vigil');
  });

  it('checks the sign-up form before sending: matching passwords and the terms box', async () => {
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Full name').fill('Journey Tester');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByLabel('Confirm password').fill(`${PASSWORD}x`);
    await form.getByRole('button', { name: 'Create Account' }).click();
    expect(await form.getByText('Passwords do not match.', { exact: true }).isVisible()).toBe(true);
    expect(
      await form.getByText('You must accept the terms of service and privacy policy.', { exact: true }).isVisible(),
    ).toBe(true);
    // The admin invitation field appears only for the company domain.
    expect(await form.getByLabel('Admin invitation code').count()).toBe(0);
  });

  it('signs up, and the server refuses to sign in before the email is confirmed', async () => {
    watcher.reset();
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Confirm password').fill(PASSWORD);
    await form.getByRole('checkbox', { name: /I agree/ }).click();
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page
      .getByText('Account created! Please check your email to confirm your account.', { exact: true })
      .first()
      .waitFor();

    await page.getByRole('tab', { name: 'Sign In' }).click();
    const signIn = page.getByRole('form', { name: 'Sign in' });
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await page
      .getByText('Email not confirmed. Please check your email for the confirmation link.', { exact: true })
      .waitFor();
    expect(watcher.problems.failedRequests).toEqual(['POST /auth/v1/token 403']);
  });

  it('confirms the email from the real message in the dev mailbox and lands on onboarding', async () => {
    watcher.reset();
    const mail = await readMailbox(email, /confirm/i);
    await page.goto(linkFromMail(mail.text, '/login?type=signup'));
    await page.waitForURL(`${WEB_URL}/onboarding`, { timeout: 15_000 });
    await expectPage(page, HEADINGS.onboarding);
    // No plan yet: the account summary answers 404, which is how onboarding knows.
    expect(watcher.problems.failedRequests.every((f) => f === 'GET /api/settings/account-summary 404')).toBe(true);
  });

  it('keeps a signed-in user without a subscription out of /account and /upgrade, and non-admins out of /dashboard/admin', async () => {
    for (const [path, target] of [
      ['/account', '/onboarding'],
      ['/upgrade', '/onboarding'],
      ['/dashboard/admin', '/onboarding'],
    ] as const) {
      await page.goto(`${WEB_URL}${path}`);
      await page.waitForURL(`${WEB_URL}${target}`, { timeout: 15_000 });
      await expectPage(page, HEADINGS.onboarding);
    }
  });

  it('signs out: every stored trace is gone and guarded pages send to /login again', async () => {
    await page.goto(`${WEB_URL}/onboarding`);
    await expectPage(page, HEADINGS.onboarding);
    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
    const stored = await page.evaluate(() =>
      [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) => k.startsWith('vigil.')),
    );
    expect(stored).toEqual([]);
    await page.goto(`${WEB_URL}/dashboard`);
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
  });

  it('signs in with the password after confirmation and restores the session after a reload when remembered', async () => {
    const signIn = page.getByRole('form', { name: 'Sign in' });
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signIn.getByRole('checkbox', { name: /Remember me/ }).click();
    await signIn.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${WEB_URL}/onboarding`, { timeout: 15_000 });
    await expectPage(page, HEADINGS.onboarding);
    // The access token is never written to storage; only the refresh token is, and only because "Remember me" was ticked.
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('vigil.')));
    expect(stored).toEqual(['vigil.auth.refresh']);
    await page.reload();
    await page.waitForURL(`${WEB_URL}/onboarding`);
    await expectPage(page, HEADINGS.onboarding);
    await page.getByRole('button', { name: 'Sign Out' }).first().click();
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
  });

  it('applies the admin sign-up rules on the server: a company address not on the approved list is refused like a wrong code', async () => {
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Full name').fill('Not An Admin');
    await form.getByLabel('Email').fill(`intruder.${Date.now()}@vigil.dev`);
    await form.getByLabel('Admin invitation code').fill('guessed-code');
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByLabel('Confirm password').fill(PASSWORD);
    await form.getByRole('checkbox', { name: /I agree/ }).click();
    await form.getByRole('button', { name: 'Create Account' }).click();
    // The same answer as a wrong code (not "Access Denied"), so the form does not reveal the allow-list.
    await page.getByText('Invalid Invitation', { exact: true }).first().waitFor();
    expect(
      await page.getByText('The invitation code is invalid or expired.', { exact: true }).first().isVisible(),
    ).toBe(true);

    // The approved address still needs an invitation code, and the server says so.
    await form.getByLabel('Email').fill('admin@vigil.dev');
    await form.getByLabel('Admin invitation code').fill('');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Invitation Required', { exact: true }).waitFor();

    // A wrong code is refused, and nothing is created.
    await form.getByLabel('Admin invitation code').fill('not-a-real-invitation');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Invalid Invitation', { exact: true }).waitFor();
    expect(await page.getByText('The invitation code is invalid or expired.', { exact: true }).isVisible()).toBe(true);
  });

  it('confirms a password-reset request with the address it was sent to, and Try Another Email returns to the form', async () => {
    await page.goto(`${WEB_URL}/forgot-password`);
    // The page is its own chunk: its title is set once it has loaded.
    await expectPage(page, HEADINGS.forgotPassword);
    expect(await page.title()).toBe('Reset Password · Vigil');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    expect(await page.getByText('Please enter a valid email address.', { exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page
      .getByText('If an account with that email exists, you will receive a password reset link.', { exact: true })
      .waitFor();
    expect(await page.getByTestId('sent-to').innerText()).toBe(email);
    await page.getByRole('button', { name: 'Try Another Email' }).click();
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    const mail = await readMailbox(email, /reset|password/i);
    expect(linkFromMail(mail.text, '/login?type=recovery')).toContain('token=');
  });
});
