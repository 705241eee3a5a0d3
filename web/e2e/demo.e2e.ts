import type { Browser } from 'playwright-core';
import {
  expectNoPageErrors,
  expectPage,
  GATEWAY_URL,
  HEADINGS,
  launchChromium,
  openWatchedPage,
  WEB_URL,
  passwordGrant,
} from './browser.js';

/** The demo client npm start prints (infra/scripts/browser-tests.mjs seeds it the same way for this stack). */
function demoClient(): { email: string; password: string; apiKey: string } {
  const { DEMO_CLIENT_EMAIL: email, DEMO_CLIENT_PASSWORD: password, DEMO_CLIENT_API_KEY: apiKey } = process.env;
  if (!email || !password || !apiKey) {
    throw new Error(
      'DEMO_CLIENT_* is not set: run the browser tests through infra/scripts/browser-tests.mjs (or npm test)',
    );
  }
  return { email, password, apiKey };
}

/**
 * The account the README hands out must work like a paying customer's: billing knows it
 * (it subscribed through the sandbox provider), so the subscription guard lets it in.
 */
describe('the demo client npm start hands out', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('is a billing customer: its upgrade options answer 200 with nothing above large', async () => {
    const demo = demoClient();
    const signIn = await passwordGrant(demo.email, demo.password);
    expect(signIn.status).toBe(200);
    const { access_token } = (await signIn.json()) as { access_token: string };
    // A dashboard call: the client's key and the session of one of its users, as the web app sends them.
    const options = await fetch(`${GATEWAY_URL}/api/upgrade/options`, {
      headers: { authorization: `Bearer ${access_token}`, 'x-api-key': demo.apiKey },
    });
    expect([options.status, await options.json()]).toEqual([200, { upgradeOptions: [] }]);
  });

  it('signs in on the web app and reaches /dashboard and /account, not /onboarding', async () => {
    const demo = demoClient();
    const { context, page, watcher } = await openWatchedPage(browser);
    await page.goto(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(demo.email);
    await form.getByLabel('Password', { exact: true }).fill(demo.password);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Welcome back!', { exact: true }).waitFor({ timeout: 15_000 });
    expect(page.url()).not.toContain('/onboarding');

    await page.goto(`${WEB_URL}/dashboard`);
    await expectPage(page, 'Welcome, Demo Analyst');
    await page.goto(`${WEB_URL}/account`);
    await expectPage(page, HEADINGS.account);
    await page.getByRole('heading', { name: 'Usage this month' }).waitFor();
    expect(page.url()).toBe(`${WEB_URL}/account`);
    expectNoPageErrors(watcher);
    await context.close();
  });
});
