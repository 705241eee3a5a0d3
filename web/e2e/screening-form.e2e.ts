import type { Browser, Page, Request } from 'playwright-core';
import {
  createSubscribedUser,
  expectPage,
  GATEWAY_URL,
  launchChromium,
  signInWithRefreshToken,
  uniqueEmail,
  watchPage,
  WEB_URL,
  type PageWatcher,
} from './browser.js';

// Issue #36: the screening form takes every field the API takes (date of birth, nationality,
// entity type, customer reference, identifiers), the result names the input it answers, and a new
// submission, an invalid one included, clears the previous result.

const PASSWORD = 'screening-form-e2e-passphrase';
const CLEAR_NAME = 'Margaret Thornbury';
const BLOCKED_NAME = 'Nicolas Maduro Moros';

type Session = { access_token: string; refresh_token: string };

async function renewed(session: Session): Promise<Session> {
  const response = await fetch(`${GATEWAY_URL}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: session.refresh_token }),
  });
  if (!response.ok) throw new Error(`the session refresh answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Session;
}

const resultsHeading = (page: Page) => page.getByRole('heading', { level: 2, name: /^Results for / });

describe('the Entity Screening form', () => {
  let browser: Browser;
  let page: Page;
  let watcher: PageWatcher;
  const screens: unknown[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    const session = await renewed(await createSubscribedUser(uniqueEmail('screen-form'), PASSWORD, 'large'));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    watcher = watchPage(page);
    page.on('request', (request: Request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/screen')
        screens.push(request.postDataJSON());
    });
    await signInWithRefreshToken(page, session.refresh_token);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('sends every field the API takes and names the input in the result header', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/api-screen`);
    await expectPage(page, 'Entity Screening');
    await page.getByLabel(/Entity name/).fill(BLOCKED_NAME);
    await page.getByLabel('Date of birth (optional)').fill('1962-11-23');
    await page.getByLabel('Nationality (optional)').fill('VE');
    await page.getByLabel('Entity type (optional)').selectOption('individual');
    await page.getByLabel('Customer reference (optional)').fill('CUST-0042');
    await page.getByRole('button', { name: 'Add identifier' }).click();
    await page.getByLabel('Identifier 1 type').selectOption('passport');
    await page.getByLabel('Identifier 1 value').fill('X1234567');
    await page.getByRole('button', { name: 'Start Screening' }).click();
    await resultsHeading(page).waitFor({ timeout: 20_000 });
    expect(await resultsHeading(page).innerText()).toBe(`Results for ${BLOCKED_NAME}`);
    await page.getByTestId('screen-result').first().waitFor();
    expect(screens.at(-1)).toEqual({
      name: BLOCKED_NAME,
      dateOfBirth: '1962-11-23',
      nationality: 'VE',
      entityType: 'individual',
      customerReference: 'CUST-0042',
      identifiers: [{ type: 'passport', value: 'X1234567' }],
    });
    expect(watcher.problems.pageErrors).toEqual([]);
  });

  it('clears the previous result on a new submission, an invalid one included', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/api-screen`);
    await expectPage(page, 'Entity Screening');
    await page.getByLabel(/Entity name/).fill(CLEAR_NAME);
    await page.getByRole('button', { name: 'Start Screening' }).click();
    await page.getByTestId('clear-panel').waitFor({ timeout: 20_000 });
    expect(await resultsHeading(page).innerText()).toBe(`Results for ${CLEAR_NAME}`);

    // A new name with an invalid date of birth: its error shows, and no "CLEAR" is left under it.
    const sent = screens.length;
    await page.getByLabel(/Entity name/).fill(BLOCKED_NAME);
    await page.getByLabel('Date of birth (optional)').fill('23/11/1962');
    await page.getByRole('button', { name: 'Start Screening' }).click();
    await page.getByText('Date of birth must be YYYY, YYYY-MM or YYYY-MM-DD.').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('clear-panel').count()).toBe(0);
    expect(await resultsHeading(page).count()).toBe(0);
    expect(screens.length).toBe(sent);

    // Corrected, the answer is the new name's, headed with it.
    await page.getByLabel('Date of birth (optional)').fill('1962');
    await page.getByRole('button', { name: 'Start Screening' }).click();
    await page.getByTestId('screen-result').first().waitFor({ timeout: 20_000 });
    expect(await resultsHeading(page).innerText()).toBe(`Results for ${BLOCKED_NAME}`);
    expect(await page.getByTestId('clear-panel').count()).toBe(0);
    expect(watcher.problems.pageErrors).toEqual([]);
  });
});
