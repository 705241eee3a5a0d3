import type { Browser, Page } from 'playwright-core';
import {
  createSubscribedUser,
  expectPage,
  launchChromium,
  signInWithRefreshToken,
  uniqueEmail,
  WEB_URL,
} from './browser.js';

const PASSWORD = 'bulk-rows-e2e-passphrase';

/**
 * Issue #35: Bulk Search sends rows, not bare names: each with the customer's reference (after a
 * tab, as two spreadsheet columns paste) or its row number, and each result shows it.
 */
describe('Bulk Search rows', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    const session = await createSubscribedUser(uniqueEmail('bulk-rows'), PASSWORD, 'large');
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInWithRefreshToken(page, session.refresh_token);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('sends entities with a reference per row and shows each result’s reference', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/bulk-search`);
    await expectPage(page, 'Bulk Search');
    // One input event for the whole paste, as a browser pastes.
    await page.getByLabel('Names, one per line').evaluate((element, value) => {
      const field = element as HTMLTextAreaElement;
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(field, value);
      field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: value }));
    }, 'Nicolas Maduro Moros\tCUST-0042\nMargaret Thornbury');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/sanctions/bulk-search') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Start Bulk Search' }).click();
    expect((await sent).postDataJSON()).toEqual({
      entities: [
        { name: 'Nicolas Maduro Moros', reference: 'CUST-0042' },
        { name: 'Margaret Thornbury', reference: 'row 2' },
      ],
    });
    const results = page.getByTestId('bulk-results');
    await results.getByText('CUST-0042', { exact: true }).waitFor({ timeout: 20_000 });
    await results.getByText('row 2', { exact: true }).waitFor();
  });
});
