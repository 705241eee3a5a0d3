import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  launchChromium,
  WEB_URL,
  openWatchedPage,
  expectNoPageErrors,
  type PageWatcher,
  expectPage,
  HEADINGS,
} from './browser.js';

describe('the shell: offline banner, toasts, 404', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watcher: PageWatcher;

  beforeAll(async () => {
    browser = await launchChromium();
    ({ context, page, watcher } = await openWatchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    expectNoPageErrors(watcher);
  });

  it('shows the offline banner when the connection drops and clears it when it returns', async () => {
    await page.goto(`${WEB_URL}/services`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.services);
    const banner = page.getByRole('alert').filter({ hasText: 'No Internet Connection' });
    expect(await banner.count()).toBe(0);
    await context.setOffline(true);
    await banner.waitFor();
    expect(await banner.innerText()).toContain("You're currently offline. Some features may not work properly.");
    await context.setOffline(false);
    await banner.waitFor({ state: 'detached' });
  });

  it('keeps one toast at a time and F8 moves focus to the notification region', async () => {
    // Two toasts in a row: a failed sign-in shows one; a second failure replaces it rather than stacking.
    await page.goto(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(`nobody.${Date.now()}@example.com`);
    await form.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid login credentials', { exact: true }).waitFor();
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForTimeout(500);
    const region = page.getByRole('region', { name: /Notification/ });
    expect(await region.locator('li').count()).toBe(1);
    await page.keyboard.press('F8');
    expect(
      await page.evaluate(() => document.activeElement?.closest('[role=region]')?.getAttribute('aria-label') ?? ''),
    ).toMatch(/Notification/);
  });

  it('answers an unknown path with the 404 page, the attempted path and up to three suggestions', async () => {
    await page.goto(`${WEB_URL}/pricing-plans-old`);
    expect(await page.locator('h1').innerText()).toBe('Page Not Found');
    // What every other test relies on: expecting a page and landing here fails at once.
    await expect(expectPage(page, HEADINGS.pricing)).rejects.toThrow(/is the Not Found page/);
    expect(await page.title()).toMatch(/Vigil/);
    expect(await page.getByText('/pricing-plans-old', { exact: true }).isVisible()).toBe(true);
    const suggestions = page
      .getByRole('heading', { name: 'You might be looking for' })
      .locator('xpath=..')
      .getByRole('link');
    const count = await suggestions.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(3);
    expect(await suggestions.first().innerText()).toContain('Pricing');
    for (const name of ['Go Home', 'Go Back', 'Try Again']) {
      expect(await page.getByRole(name === 'Go Home' ? 'link' : 'button', { name }).isVisible()).toBe(true);
    }
  });
});
