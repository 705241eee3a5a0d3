import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  publicRouteUnavailable,
  saveScreenshotAt,
  watchPage,
  WEB_URL,
  type PageProblems,
  expectPage,
} from './browser.js';

type PublicPage = { path: string; name: string; title: RegExp; h1: string; backendRoute?: string };

const PAGES: PublicPage[] = [
  { path: '/', name: 'home', title: /Vigil/, h1: 'Screen every name against the lists that matter' },
  {
    path: '/about-us',
    name: 'about',
    title: /^About Us · Vigil$/,
    h1: 'We help compliance teams know who they are dealing with',
  },
  {
    path: '/services',
    name: 'services',
    title: /^Services · Vigil$/,
    h1: 'Sanctions screening for every point in the customer lifecycle',
  },
  {
    path: '/pricing',
    name: 'pricing',
    title: /^Pricing · Vigil$/,
    h1: 'Plans that grow with your screening volume',
    backendRoute: '/api/v1/plans',
  },
  {
    path: '/docs',
    name: 'docs',
    title: /^Documentation · Vigil$/,
    h1: 'Integrate sanctions screening in an afternoon',
    backendRoute: '/openapi.json',
  },
  {
    path: '/watchlists',
    name: 'watchlists',
    title: /^Watchlists · Vigil$/,
    h1: 'Global Sanctions List Monitoring',
    backendRoute: '/api/lists',
  },
  { path: '/privacy-policy', name: 'privacy', title: /^Privacy Policy · Vigil$/, h1: 'Privacy Policy' },
  { path: '/terms-of-service', name: 'terms', title: /^Terms of Service · Vigil$/, h1: 'Terms of Service' },
  { path: '/login', name: 'login', title: /^Sign In · Vigil$/, h1: 'Welcome to Vigil' },
  { path: '/forgot-password', name: 'forgot-password', title: /^Reset Password · Vigil$/, h1: 'Reset your password' },
];

/** The requests a page may fail only because the gateway route it needs has not been built yet. */
function unexpectedFailures(problems: PageProblems, missing: { route: string; status: number } | null): string[] {
  return problems.failedRequests.filter(
    (failure) => missing === null || failure !== `GET ${missing.route} ${missing.status}`,
  );
}

describe('public pages', () => {
  let browser: Browser;
  let page: Page;
  let watcher: ReturnType<typeof watchPage>;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    watcher = watchPage(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const spec of PAGES) {
    it(`${spec.path}: one h1, a title, no console errors or failed requests; screenshots at 1280 and 375 px`, async () => {
      const status = spec.backendRoute ? await publicRouteUnavailable(spec.backendRoute) : null;
      const missing = spec.backendRoute && status !== null ? { route: spec.backendRoute, status } : null;
      if (missing)
        console.warn(
          `${spec.path}: ${missing.route} answers anonymous visitors ${missing.status}; checking the error state instead`,
        );
      watcher.reset();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${WEB_URL}${spec.path}`, { waitUntil: 'networkidle' });
      // Most pages are their own chunk: wait for the page, not just the shell.
      await expectPage(page, spec.h1);
      expect(await page.locator('h1').count()).toBe(1);
      expect(await page.title()).toMatch(spec.title);

      if (spec.path === '/docs') {
        await page.getByRole('tab', { name: 'Endpoints' }).click();
        if (!missing) {
          // Rendered from the gateway's OpenAPI document, so the public API's operations are listed.
          expect(await page.locator('[data-endpoint]').count()).toBeGreaterThan(0);
        }
        // A server's guide: the steps to a verified test delivery, and the webhook operations from the document.
        await page.getByRole('tab', { name: 'Webhooks & streams' }).click();
        await page.getByTestId('webhooks-guide').waitFor();
        if (!missing) {
          expect(await page.locator('[data-endpoint="POST /api/monitoring/webhooks/{id}/test"]').count()).toBe(1);
          expect(await page.locator('[data-endpoint="GET /api/monitoring/stream"]').count()).toBe(1);
        }
      }
      if (spec.path === '/pricing' && !missing) {
        // Four plans from the live catalogue, Most Popular on Medium, yearly = round(12 × 0.8 × monthly).
        await page.locator('[data-tier]').first().waitFor();
        expect(await page.locator('[data-tier]').count()).toBe(4);
        expect(await page.locator('[data-tier="medium"]').innerText()).toContain('Most Popular');
        const medium = page.locator('[data-tier="medium"]').getByTestId('plan-price');
        const monthly = Number((await medium.innerText()).replace(/[^0-9]/g, ''));
        await page.getByRole('radio', { name: /Yearly/ }).click();
        expect(Number((await medium.innerText()).replace(/[^0-9]/g, ''))).toBe(Math.round(12 * 0.8 * monthly));
        await page.getByRole('radio', { name: /Monthly/ }).click();
        // FAQ: one answer open at a time.
        await page.getByRole('button', { name: 'Can I change plans later?' }).click();
        await page.getByRole('button', { name: 'What counts as a screening call?' }).click();
        expect(await page.locator('[data-state=open][role=region]').count()).toBe(1);
      }
      if (missing) {
        // The backend has not landed: the page must say so instead of inventing data.
        expect(
          await page
            .getByRole('alert')
            .or(page.getByRole('status'))
            .filter({ hasText: /could not be loaded|unavailable/i })
            .count(),
        ).toBeGreaterThan(0);
      }

      await saveScreenshotAt(page, `public-${spec.name}-1280`, 1280);
      await saveScreenshotAt(page, `public-${spec.name}-375`, 375);
      // Nothing may stick out sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      expect(watcher.problems.consoleErrors).toEqual([]);
      expect(watcher.problems.pageErrors).toEqual([]);
      expect(unexpectedFailures(watcher.problems, missing)).toEqual([]);
    });
  }
});
