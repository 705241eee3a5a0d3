import type { Browser, Page } from 'playwright-core';
import { ADMIN_URL, WEB_URL, launchChromium, openPage } from './browser.js';

// The policy of web/vite.shared.ts as `vite preview` (what these tests and `npm start` serve) sends it.
describe.each([
  ['the web app', WEB_URL, '/login'],
  ['the admin console', ADMIN_URL, '/login'],
])('%s', (_name, origin, path) => {
  it('sends a Content-Security-Policy nobody may frame it under, nosniff and X-Frame-Options', async () => {
    for (const url of [`${origin}${path}`, `${origin}/favicon.svg`]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp.split('; ')).toEqual(
        expect.arrayContaining([
          "default-src 'self'",
          "script-src 'self'",
          "frame-ancestors 'none'",
          "object-src 'none'",
        ]),
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  describe('in a browser', () => {
    let browser: Browser;
    let page: Page;
    beforeAll(async () => {
      browser = await launchChromium();
      // Another origin's page (the gateway's favicon-less JSON would do; the other app is an origin too).
      ({ page } = await openPage(browser, origin === WEB_URL ? ADMIN_URL : WEB_URL));
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('cannot be framed by another site', async () => {
      await page.evaluate((src) => {
        const frame = document.createElement('iframe');
        frame.src = src;
        document.body.append(frame);
      }, `${origin}${path}`);
      await page.waitForTimeout(1500);
      const framed = page.frames().find((frame) => frame !== page.mainFrame());
      expect(framed).toBeDefined();
      // Chromium replaces a refused frame with its own error page: none of the app is in it.
      expect(framed!.url()).toMatch(/^chrome-error:/);
      expect(await framed!.getByRole('heading', { name: /sign in/i }).count()).toBe(0);
    });
  });
});
