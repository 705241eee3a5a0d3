import type { Browser, Page } from 'playwright-core';
import {
  EXPECTED_SERVICES,
  launchChromium,
  openPage,
  saveScreenshot,
  waitForGreenStatus,
  WEB_URL,
  expectPage,
  HEADINGS,
} from './browser.js';

describe('client web app', () => {
  let browser: Browser;
  let page: Page;
  let pageErrors: Error[];

  beforeAll(async () => {
    browser = await launchChromium();
    ({ page, pageErrors } = await openPage(browser, WEB_URL));
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    expect(pageErrors.map((error) => error.message)).toEqual([]);
  });

  it('shows the home page with its heading, header and footer', async () => {
    await expectPage(page, HEADINGS.home);
    expect(await page.title()).toContain('Vigil');

    const header = page.locator('header');
    const mainNav = header.getByRole('navigation', { name: 'Main' });
    expect(await mainNav.getByRole('link').allInnerTexts()).toEqual([
      'Home',
      'About Us',
      'Services',
      'Watchlists',
      'Pricing',
      'Docs',
    ]);
    expect(await mainNav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect(await header.getByRole('link', { name: 'Join Now' }).getAttribute('href')).toBe('/login');
    expect(await header.getByRole('link', { name: 'Contact Us' }).getAttribute('href')).toBe('/about-us#contact');

    expect(await page.getByRole('link', { name: /Start Free API Trial/ }).getAttribute('href')).toBe(
      '/about-us#contact',
    );
    expect(await page.getByRole('heading', { name: 'Secure Your Business' }).isVisible()).toBe(true);

    const footer = page.locator('footer');
    await footer.scrollIntoViewIfNeeded();
    const footerText = await footer.innerText();
    expect(footerText).toContain('Privacy Policy');
    expect(footerText).toContain('Terms of Service');
    expect(footerText).toContain(`© ${new Date().getFullYear()} Vigil`);
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it('turns the status widget green with all six services up', async () => {
    const status = await waitForGreenStatus(page);
    expect(status.headline).toBe('All systems operational');
    expect(Object.keys(status.rows).sort()).toEqual([...EXPECTED_SERVICES].sort());
    for (const service of EXPECTED_SERVICES) {
      expect([service, status.rows[service]]).toEqual([
        service,
        expect.stringMatching(new RegExp(`^${service} .*\\bUp$`, 'i')),
      ]);
    }
    await saveScreenshot(page, 'web-home');
  });

  it('hides the header when scrolling down past 100 px and brings it back on scroll up', async () => {
    const header = page.locator('header');
    const headerBottom = async () => {
      const box = await header.boundingBox();
      return box === null ? Number.NaN : box.y + box.height;
    };

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(700, 500);
    await page.mouse.wheel(0, 60);
    await page.waitForTimeout(400);
    expect(await header.getAttribute('data-visible')).toBe('true');

    await page.mouse.wheel(0, 700);
    await page.waitForFunction(() => document.querySelector('header')?.dataset.visible === 'false');
    await page.waitForTimeout(400); // the slide-out transition
    expect(await headerBottom()).toBeLessThanOrEqual(0);

    await page.mouse.wheel(0, -120);
    await page.waitForFunction(() => document.querySelector('header')?.dataset.visible === 'true');
    await page.waitForTimeout(400);
    expect(await headerBottom()).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  });

  it('answers an unknown path with the Page Not Found screen inside the shell', async () => {
    const { page: notFound, pageErrors: errors } = await openPage(browser, `${WEB_URL}/no-such-page`);
    expect(await notFound.getByRole('heading', { level: 1 }).innerText()).toBe('Page Not Found');
    expect(await notFound.getByText('/no-such-page', { exact: true }).isVisible()).toBe(true);
    expect(await notFound.locator('header').getByRole('link', { name: 'Join Now' }).isVisible()).toBe(true);
    await notFound.getByRole('link', { name: 'Go Home' }).click();
    await notFound.waitForURL(`${WEB_URL}/`);
    // The router changes the URL before the home page (loaded on demand) replaces the Not Found
    // screen; expectPage would fail on the screen still leaving. If it never leaves, this times out.
    await notFound
      .getByRole('heading', { level: 1, name: 'Page Not Found', exact: true })
      .waitFor({ state: 'detached' });
    await expectPage(notFound, HEADINGS.home);
    expect(errors).toEqual([]);
    await notFound.context().close();
  });
});
