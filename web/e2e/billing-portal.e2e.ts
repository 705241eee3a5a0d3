// Issue #37: the billing portal is open to every active plan. A starter owner (no dashboard) still
// updates its card, cancels or downgrades there; the browser stack runs billing's sandbox provider,
// whose portal is the account page (Stripe's own portal is covered by services/billing/test/stripe.spec.ts).
import type { Browser } from 'playwright-core';
import {
  WEB_URL,
  createSubscribedUser,
  expectPage,
  launchChromium,
  signInWithRefreshToken,
  uniqueEmail,
} from './browser.js';

describe('billing portal for every plan', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens the portal for a starter client from its account page', async () => {
    const session = await createSubscribedUser(uniqueEmail('portal-starter'), 'portal-e2e-passphrase', 'starter');
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInWithRefreshToken(page, session.refresh_token);
    await page.goto(`${WEB_URL}/account`);
    await expectPage(page, 'Account & billing');
    const [portal] = await Promise.all([
      context.waitForEvent('page', { timeout: 15_000 }),
      page.getByRole('button', { name: 'Manage billing' }).click(),
    ]);
    await portal.waitForLoadState();
    expect(new URL(portal.url()).pathname).toBe('/account');
    expect(await page.getByText('Failed to open billing portal').count()).toBe(0);
    await context.close();
  });
});
