import type { Browser, Page } from 'playwright-core';
import {
  launchChromium,
  WEB_URL,
  openWatchedPage,
  expectNoPageErrors,
  type PageWatcher,
  expectPage,
  HEADINGS,
} from './browser.js';

type Focused = { name: string; tag: string; visibleFocus: boolean };

/** What has focus now, by its accessible name, and whether a focus indicator is drawn around it. */
function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    const labelledBy = el.getAttribute('aria-labelledby');
    const label =
      el.getAttribute('aria-label') ??
      (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ??
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
      el.textContent ??
      '';
    return { name: label.replace(/\s+/g, ' ').trim(), tag: el.tagName.toLowerCase(), visibleFocus: outline || ring };
  });
}

/** Tabs through the page from the top, answering every stop until focus leaves the document or comes round again. */
async function tabStops(page: Page, max = 60): Promise<Focused[]> {
  const stops: Focused[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    // The first Tab may only bring focus into the document; after that, leaving it ends the round.
    if (now === null && stops.length === 0) continue;
    if (now === null) break;
    stops.push(now);
  }
  return stops;
}

describe('keyboard and notifications', () => {
  let browser: Browser;
  let page: Page;
  let watcher: PageWatcher;

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

  it('reaches every control on /login by Tab, each with a visible focus ring, and signs in from the keyboard', async () => {
    await page.goto(`${WEB_URL}/login`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.login);
    // /login is its own chunk: tab through the page, not the shell alone.
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    const stops = await tabStops(page);
    const names = stops.map((stop) => stop.name);
    for (const expected of [
      'Vigil home',
      'Pricing',
      'Contact Us',
      'Join Now',
      'Sign In',
      'Email',
      'Forgot password?',
      'Password',
      'Remember me for 30 days',
      'Continue with Google',
    ]) {
      expect(names).toContain(expected);
    }
    const withoutRing = stops.filter((stop) => !stop.visibleFocus);
    expect(withoutRing).toEqual([]);

    // Arrow keys move between the Sign In and Sign Up tabs (one tab stop for the list, as Radix tabs do).
    await page.getByRole('tab', { name: 'Sign In' }).focus();
    await page.keyboard.press('ArrowRight');
    // Radix moves roving focus on the next tick.
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Sign Up');
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Sign up' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');

    // Type and submit without the mouse: the server's refusal arrives as a toast.
    await page.getByRole('form', { name: 'Sign in' }).getByLabel('Email').focus();
    await page.keyboard.type(`keyboard.${Date.now()}@example.com`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect((await focused(page))?.name).toBe('Password');
    await page.keyboard.type('not-the-password-1');
    await page.keyboard.press('Enter');
    await page.getByText('Invalid login credentials', { exact: true }).waitFor();
  });

  it('reaches the mobile menu by keyboard at 375 px and its links are in the tab order once open', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${WEB_URL}/services`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.services);
    const menu = page.getByRole('button', { name: /menu/i });
    await menu.focus();
    expect((await focused(page))?.visibleFocus).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const stops = [await focused(page), ...(await tabStops(page, 8))].map((stop) => stop?.name);
    expect(stops).toContain('Watchlists');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('keeps a toast up for about 5 s, then removes it', async () => {
    await page.goto(`${WEB_URL}/login`, { waitUntil: 'networkidle' });
    await expectPage(page, HEADINGS.login);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(`toast.${Date.now()}@example.com`);
    await form.getByLabel('Password', { exact: true }).fill('not-the-password-2');
    // Away from the toast region: hovering a toast pauses its timer, as it should.
    await page.mouse.move(10, 450);
    await form.getByRole('button', { name: 'Sign In' }).press('Enter');
    const toast = page.getByRole('region', { name: /Notification/ }).locator('li');
    await toast.waitFor();
    const shownAt = Date.now();
    await page.mouse.move(10, 450);
    await page.waitForTimeout(4_000);
    expect(await toast.count()).toBe(1);
    await toast.waitFor({ state: 'detached', timeout: 4_000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThanOrEqual(4_500);
    expect(shownFor).toBeLessThan(7_500);
  });
});
