import type { Browser, BrowserContext, Page } from 'playwright-core';
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

// Issue #36 "History": a name screened earlier is found on the Alerts and Logs pages by a search
// the server runs (any case, accents ignored) over the client's whole history, and both pages
// filter on who ran the screening (issue #33). The client's newest screens are 120 clear names
// screened after the blocked ones, so the blocked ones are off the newest page of 100 logs.

const PASSWORD = 'history-e2e-passphrase';
const BY_KEY_BLOCKED = 'Kim Jong Un';
const BY_MEMBER_BLOCKED = 'Viktor Bout';
const ACCENTED = 'Zoë Quillfeather-Núñez';
const NEWER_CLEAR = Array.from({ length: 120 }, (_, i) => `Later Clear Customer ${i}`);

type Session = { access_token: string; refresh_token: string };

/** The session renewed, as the app renews it: the one issued at sign-up names no client yet. */
async function renewed(session: Session): Promise<Session> {
  const response = await fetch(`${GATEWAY_URL}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: session.refresh_token }),
  });
  if (!response.ok) throw new Error(`the session refresh answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Session;
}

async function post(path: string, headers: Record<string, string>, body: object): Promise<{ status?: string }> {
  const response = await fetch(`${GATEWAY_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { status?: string };
}

/** Picks the "Screened by" option whose text holds `text` (a member shows as "Name (email)"). */
async function screenedBy(page: Page, text: string) {
  const select = page.getByLabel('Screened by');
  const value = await select.locator('option', { hasText: text }).first().getAttribute('value', { timeout: 15_000 });
  await select.selectOption(value ?? '');
}

const cards = (page: Page) => page.getByTestId('alert-card');
const rows = (page: Page) => page.getByTestId('log-row');

/** Waits until the list shows exactly these names (each card or row names one). */
async function expectShown(page: Page, testId: 'alert-card' | 'log-row', names: string[]) {
  await page.waitForFunction(
    ([id, expected]) => {
      const shown = Array.from(document.querySelectorAll(`[data-testid="${id}"]`), (e) => e.textContent ?? '');
      return shown.length === expected.length && expected.every((n) => shown.some((s) => s.includes(n)));
    },
    [testId, names] as const,
    { timeout: 15_000 },
  );
}

describe('History: Alerts and Logs searched and filtered by the server', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watcher: PageWatcher;
  let email: string;

  beforeAll(async () => {
    browser = await launchChromium();
    email = uniqueEmail('history');
    const session = await renewed(await createSubscribedUser(email, PASSWORD, 'large'));
    const member = { authorization: `Bearer ${session.access_token}` };
    const { api_key: apiKey } = (await post('/api/settings/regenerate-api-key', member, {})) as { api_key: string };
    const key = { 'x-api-key': apiKey };
    expect((await post('/api/v1/screen', key, { name: BY_KEY_BLOCKED })).status).toBe('blocked');
    expect((await post('/api/screen', member, { name: BY_MEMBER_BLOCKED })).status).toBe('blocked');
    await post('/api/v1/screen', key, { name: ACCENTED });
    await post('/api/v1/bulk-screen', key, { names: NEWER_CLEAR });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    watcher = watchPage(page);
    await signInWithRefreshToken(page, session.refresh_token);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('finds an alert by name (any case) and by who screened it', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/alerts`);
    await expectPage(page, 'Sanction Alerts');
    await expectShown(page, 'alert-card', [BY_MEMBER_BLOCKED, BY_KEY_BLOCKED]);
    await page.getByLabel('Search', { exact: true }).fill('KIM JONG');
    await expectShown(page, 'alert-card', [BY_KEY_BLOCKED]);
    expect(await cards(page).first().innerText()).toMatch(/screened by API key/);
    await page.getByLabel('Search', { exact: true }).fill('');
    await screenedBy(page, email);
    await expectShown(page, 'alert-card', [BY_MEMBER_BLOCKED]);
    await page.getByRole('button', { name: /^All Alerts \(1\)$/ }).waitFor();
    await screenedBy(page, 'API keys');
    await expectShown(page, 'alert-card', [BY_KEY_BLOCKED]);
    expect(watcher.problems.pageErrors).toEqual([]);
  });

  it('finds a log by name without its accents, lists every alert on its tab, and filters by who screened', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/logs`);
    await expectPage(page, 'Screening Logs');
    await page.getByRole('button', { name: /^All \(123\)$/ }).waitFor({ timeout: 15_000 });
    // The two blocked screens are older than the newest page of 100: the Alerts tab still lists both.
    await page.getByRole('button', { name: /^Alerts \(2\)$/ }).click();
    await expectShown(page, 'log-row', [BY_MEMBER_BLOCKED, BY_KEY_BLOCKED]);
    await screenedBy(page, email);
    await expectShown(page, 'log-row', [BY_MEMBER_BLOCKED]);
    expect(await rows(page).first().innerText()).toContain(email);
    await screenedBy(page, 'Anyone');
    await page.getByRole('button', { name: /^All \(\d+\)$/ }).click();
    await page.getByLabel('Search by name').fill('zoe quillfeather-nunez');
    await expectShown(page, 'log-row', [ACCENTED]);
    expect(await rows(page).first().innerText()).toMatch(/API key \S+…/);
    expect(watcher.problems.pageErrors).toEqual([]);
  });
});
