import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import {
  launchChromium,
  saveScreenshot,
  WEB_URL,
  openWatchedPage,
  expectNoPageErrors,
  type PageWatcher,
  expectPage,
  HEADINGS,
} from './browser.js';

/**
 * Each page's code is its own chunk. These tests make a chunk download fail
 * (or crawl) in the browser and check what a reader sees: the loading state,
 * the spec's navigation error screen with its attempts counter, and a Try Again
 * that works once the chunk can be fetched again.
 */
describe('route chunks: loading state and the navigation error screen', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watcher: PageWatcher;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  beforeEach(async () => {
    ({ context, page, watcher } = await openWatchedPage(browser));
    await page.goto(`${WEB_URL}/`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.home);
  });

  afterEach(async () => {
    expectNoPageErrors(watcher);
    await context.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const nav = () => page.getByRole('navigation').first();

  it('shows "Navigation Error" when the page chunk fails, counts the attempts down, and Try Again recovers', async () => {
    let blocked = 0;
    const fail = (route: Route) => {
      blocked++;
      return route.abort('failed');
    };
    await page.route('**/assets/pricing-page-*.js', fail);
    await nav().getByRole('link', { name: 'Pricing', exact: true }).click();

    await page.getByRole('heading', { name: 'Navigation Error', level: 1 }).waitFor();
    expect(page.url()).toBe(`${WEB_URL}/pricing`);
    expect(await page.getByText('If this problem persists, please contact support.', { exact: true }).isVisible()).toBe(
      true,
    );
    // The shell stays: the reader can still use the header.
    expect(await page.getByRole('banner').isVisible()).toBe(true);
    await saveScreenshot(page, 'navigation-error');

    await page.getByRole('button', { name: 'Try Again (3 attempts left)' }).click();
    await page.getByRole('button', { name: 'Try Again (2 attempts left)' }).waitFor();
    expect(blocked).toBeGreaterThanOrEqual(2);

    // The chunk can be fetched again: the next Try Again opens Pricing without a reload.
    await page.unroute('**/assets/pricing-page-*.js', fail);
    await page.getByRole('button', { name: 'Try Again (2 attempts left)' }).click();
    await expectPage(page, 'Plans that grow with your screening volume');
    expect(await page.getByRole('heading', { name: 'Navigation Error' }).count()).toBe(0);
    expect(await page.title()).toMatch(/Pricing/);
  });

  it('offers only Go to Dashboard once the three attempts are spent', async () => {
    await page.route('**/assets/watchlists-page-*.js', (route) => route.abort('failed'));
    await nav().getByRole('link', { name: 'Watchlists', exact: true }).click();
    for (const left of [3, 2, 1]) {
      await page.getByRole('button', { name: `Try Again (${left} attempts left)` }).click();
    }
    await page.getByRole('heading', { name: 'Navigation Error' }).waitFor();
    await page.getByRole('button', { name: 'Go to Dashboard' }).waitFor();
    expect(await page.getByRole('button', { name: /Try Again/ }).count()).toBe(0);
    // Go to Dashboard works (an anonymous reader is then asked to sign in).
    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await page.waitForURL(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
  });

  it('shows "Loading..." while a slow chunk downloads, then the page', async () => {
    await page.route('**/assets/docs-page-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await nav().getByRole('link', { name: 'Docs', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Loading...' }).waitFor();
    await expectPage(page, HEADINGS.docs);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.title()).toMatch(/Doc/);
    expect(watcher.problems.failedRequests).toEqual([]);
  });
});
