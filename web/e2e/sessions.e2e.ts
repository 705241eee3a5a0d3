import type { Browser } from 'playwright-core';
import {
  createConfirmedUser,
  expectPage,
  HEADINGS,
  launchChromium,
  uniqueEmail,
  watchPage,
  WEB_URL,
} from './browser.js';

/**
 * "Remember me" keeps the refresh token in localStorage, shared by every tab.
 * The auth service rotates it on each refresh and treats a spent one as theft,
 * ending the session. Two tabs opening at once must not spend it twice.
 */
describe('a remembered session in several tabs', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('stays signed in when two tabs load at the same moment', async () => {
    const session = await createConfirmedUser(uniqueEmail('tabs'), 'Vigil-e2e-Tabs-Passphrase-8');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const first = await context.newPage();
    // A static file of the app's origin: the app is not running there to pick the token up early.
    await first.goto(`${WEB_URL}/favicon.svg`);
    await first.evaluate((token) => localStorage.setItem('vigil.auth.refresh', token), session.refresh_token);
    const second = await context.newPage();
    const watchers = [watchPage(first), watchPage(second)];

    // Both tabs restore the session from the same stored token at once.
    await Promise.all([first.goto(`${WEB_URL}/onboarding`), second.goto(`${WEB_URL}/onboarding`)]);
    for (const page of [first, second]) {
      await expectPage(page, HEADINGS.onboarding);
      expect(page.url()).toBe(`${WEB_URL}/onboarding`);
    }

    // And the session is still alive at the server: a third load restores it again.
    await first.reload();
    await expectPage(first, HEADINGS.onboarding);
    expect(first.url()).toBe(`${WEB_URL}/onboarding`);
    for (const { problems } of watchers) {
      expect(problems.consoleErrors).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    }
    await context.close();
  });
});
