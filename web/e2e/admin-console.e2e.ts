import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN_URL,
  expectNoPageErrors,
  expectPage,
  GATEWAY_URL,
  launchChromium,
  saveScreenshotAt,
  watchPage,
  type PageWatcher,
  passwordGrant,
  demoAdminSecret,
  enterAdminCode,
  raiseWithCode,
  createSubscribedUser,
  uniqueEmail,
} from './browser.js';

/** The demo admin and client npm start hands out (infra/scripts/browser-tests.mjs seeds them for this stack). */
function demo() {
  const env = process.env;
  const values = {
    adminEmail: env.DEMO_ADMIN_EMAIL,
    adminPassword: env.DEMO_ADMIN_PASSWORD,
    clientEmail: env.DEMO_CLIENT_EMAIL,
    clientPassword: env.DEMO_CLIENT_PASSWORD,
  };
  if (Object.values(values).some((value) => !value)) {
    throw new Error(
      'DEMO_ADMIN_* / DEMO_CLIENT_* are not set: run through infra/scripts/browser-tests.mjs (or npm test)',
    );
  }
  return values as Record<keyof typeof values, string>;
}

/** A copy of the sample lists the stack loads (browser-tests.mjs), which a test may change. */
function listsDir(): string {
  const dir = process.env.E2E_LISTS_DIR;
  if (!dir) throw new Error('E2E_LISTS_DIR is not set: run through infra/scripts/browser-tests.mjs (or npm test)');
  return dir;
}

async function adminRefresh(source: string): Promise<void> {
  const { adminEmail, adminPassword } = demo();
  const response = await fetch(`${GATEWAY_URL}/api/client/admin/lists/refresh`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${await tokenOf(adminEmail, adminPassword)}`,
    },
    body: JSON.stringify({ sources: [source] }),
  });
  expect(response.status).toBe(200);
}

const DASHBOARD_HEADING = 'Admin Dashboard';
const ACCESS_DENIED = 'Admin dashboard access is restricted to Vigil team members only.';
/** Scores about 0.88 against PUTIN in the sample lists: blocked at the global 0.85, review under Strict (0.95/0.75). */
const NEAR_MATCH = 'Vladimir Putine';
const KEY_DEADLINE_MS = 5_000;

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${ADMIN_URL}/login`);
  await expectPage(page, 'Sign in to the admin console');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** An access token; the demo admin's raised to aal2 with its authenticator, as every admin route needs. */
async function tokenOf(email: string, password: string): Promise<string> {
  const response = await passwordGrant(email, password);
  expect(response.status).toBe(200);
  const session = (await response.json()) as Parameters<typeof raiseWithCode>[0];
  if (email !== demo().adminEmail) return session.access_token;
  return (await raiseWithCode(session, demoAdminSecret())).access_token;
}

type Screened = { status?: string; algorithm?: string; topScore?: number };

async function screen(apiKey: string, name: string): Promise<{ status: number; body: Screened }> {
  const response = await fetch(`${GATEWAY_URL}/api/v1/screen`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ name }),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Screened };
}

/** Polls until the gateway answers the key with `status`, and says how long that took. */
async function keyAnswers(apiKey: string, status: number, deadlineMs = KEY_DEADLINE_MS): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await screen(apiKey, 'Jane Doe');
    if (answer.status === status) return Date.now() - started;
    if (Date.now() - started > deadlineMs) {
      throw new Error(`the gateway still answers ${answer.status} (not ${status}) ${deadlineMs} ms later`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A toast by its title. Not by role: an open modal dialog hides the rest of the page from the accessibility tree. */
async function toast(page: Page, title: string) {
  await page.locator('li[data-variant]').getByText(title, { exact: true }).waitFor({ timeout: 10_000 });
}

function clientRow(page: Page, name: string) {
  return page.getByTestId('client-list').locator('li').filter({ hasText: name });
}

describe('the admin console', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the demo client Access Denied, with its email and Sign Out, and the gateway answers it 403', async () => {
    const { clientEmail, clientPassword } = demo();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const watcher = watchPage(page);
    await signIn(page, clientEmail, clientPassword);
    await expectPage(page, 'Access Denied');
    expect(await page.getByText(ACCESS_DENIED, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId('denied-email').innerText()).toBe(clientEmail);
    // The browser only displays; the gateway decides. A client's own session gets 403 on every admin route.
    const token = await tokenOf(clientEmail, clientPassword);
    const auth = { authorization: `Bearer ${token}` };
    const answers: [string, number][] = [];
    for (const [method, path] of [
      ['GET', '/api/client/clients'],
      ['POST', '/api/client/clients/create'],
      ['GET', '/api/client/admin/logs'],
      ['GET', '/api/client/admin/logs/export'],
      ['GET', '/api/client/quota-monitoring'],
      ['POST', '/api/client/quota-monitoring/check-warnings'],
      ['POST', '/api/client/admin/lists/refresh'],
      ['GET', '/api/client/admin/overview'],
      ['GET', '/api/client/admin/lists'],
      ['GET', '/api/client/admin/lists/ofac-sdn/versions'],
    ] as const) {
      const response = await fetch(`${GATEWAY_URL}${path}`, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ clientName: 'x', tier: 'large' }) } : {}),
      });
      answers.push([`${method} ${path}`, response.status]);
    }
    expect(answers).toEqual(answers.map(([what]) => [what, 403]));
    await saveScreenshotAt(page, 'admin-access-denied-375', 375);

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expectPage(page, 'Sign in to the admin console');
    expectNoPageErrors(watcher);
    await context.close();
  });

  describe('as the demo admin', () => {
    let context: BrowserContext;
    let page: Page;
    let watcher: PageWatcher;
    const clientName = `E2E Console ${Date.now()}`;
    let firstKey = '';
    let secondKey = '';

    beforeAll(async () => {
      context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ADMIN_URL });
      page = await context.newPage();
      watcher = watchPage(page);
    });

    afterAll(async () => {
      await context?.close();
    });

    it('signs in, and a reload keeps the session', async () => {
      const { adminEmail, adminPassword } = demo();
      await signIn(page, adminEmail, adminPassword);
      // The password alone opens nothing: the console asks for the authenticator's code (issue #33).
      await enterAdminCode(page, demoAdminSecret(), DASHBOARD_HEADING);
      await expectPage(page, DASHBOARD_HEADING);
      expect(new URL(page.url()).pathname).toBe('/dashboard/admin');
      await page.reload();
      await expectPage(page, DASHBOARD_HEADING);
      expect(new URL(page.url()).pathname).toBe('/dashboard/admin');
      expectNoPageErrors(watcher);
    });

    it('renders every section from live data', async () => {
      const heading = (name: string) => page.getByRole('heading', { level: 2, name, exact: true });
      for (const name of [
        'Overview',
        'Client Management',
        'System Reports',
        'System Health',
        'Sanctions Lists',
        'Quota Monitoring',
        'Security & Compliance Logs',
        'Threshold Configuration',
        'Account Actions',
      ]) {
        await heading(name).waitFor();
      }
      // The sidebar: web/ui's, with the six entries of spec §2.
      const nav = page.getByRole('navigation', { name: 'Admin navigation' });
      for (const entry of [
        'Overview',
        'Clients',
        'Quota Monitoring',
        'Security Logs',
        'System Reports',
        'System Health',
      ]) {
        expect(await nav.getByRole('link', { name: entry }).count()).toBe(1);
      }
      expect((await nav.boundingBox())?.width).toBe(256);

      // Overview: every card from a service's own answer, none a fixed text.
      const cards = page.getByTestId('overview-cards');
      await cards.waitFor();
      const cardText = (await cards.innerText()).replace(/\s+/g, ' ');
      expect(cardText).toMatch(/Active Users \d[\d,]*/);
      expect(cardText).toMatch(/Security Alerts \d[\d,]*/);
      expect(cardText).toMatch(/System Health \d+(\.\d)?%/);
      expect(cardText).toMatch(/Total Searches \d[\d,]*/);
      expect(cardText).not.toMatch(/1M\+|99\.9/);
      // System Reports: each service's own metrics over the last hour; the gateway has served this page.
      const gatewayRate = page
        .getByRole('definition')
        .and(page.locator('dl[aria-label="Requests per second"] [data-service="gateway"] dd'));
      await page.waitForFunction(
        (element) => /^(<0\.01|\d+(\.\d+)?)\/s$/.test(element?.textContent ?? ''),
        await gatewayRate.elementHandle(),
        { timeout: 35_000 },
      );
      expect(await page.locator('dl[aria-label="p95 latency"] [data-service="gateway"] dd').innerText()).toMatch(
        /^\d+(\.\d+)? m?s$/,
      );
      // System Health: the gateway's check lists the six services.
      const services = page.getByRole('list', { name: 'Services' });
      await services.locator('[data-state="up"]').first().waitFor();
      expect(await services.getByRole('listitem').count()).toBe(6);
      // Lists: every sample source with its version and checksum.
      const lists = page.getByTestId('admin-lists');
      await lists.waitFor();
      expect(await lists.locator('tbody tr[data-source="ofac-sdn"]').count()).toBe(1);
      expect(await lists.locator('tr[data-source="ofac-sdn"] [data-testid="list-version"]').innerText()).toMatch(
        /^\d+$/,
      );
      // The screening index: its engine, and the version each list is indexed at (the stored one, once loaded).
      expect(await page.getByTestId('index-engine').innerText()).toBe('in-process');
      expect(await lists.getByRole('columnheader', { name: 'Indexed' }).count()).toBe(1);
      expect(await lists.locator('tr[data-source="ofac-sdn"] [data-testid="list-indexed-version"]').innerText()).toBe(
        await lists.locator('tr[data-source="ofac-sdn"] [data-testid="list-version"]').innerText(),
      );

      // Clients: the seeded demo client, with its tier and subscription status.
      const demoRow = clientRow(page, 'Demo Bank');
      await demoRow.waitFor();
      expect(await demoRow.locator('[data-tier]').getAttribute('data-tier')).toBe('large');
      expect(await demoRow.locator('[data-subscription]').innerText()).toBe('active');
      expect(await page.getByTestId('client-list').evaluate((list) => getComputedStyle(list).maxHeight)).toBe('384px');

      // Security logs: this admin's own access is in the last 24 h.
      const adminAccess = page.locator('[data-count="Admin Access"]');
      await page.waitForFunction(
        (element) => Number(element?.textContent?.replace(/,/g, '')) > 0,
        await adminAccess.elementHandle(),
      );
      await page.getByTestId('security-log-rows').waitFor();
      // Quota monitoring: the four tabs.
      for (const tab of ['Quota Warnings', 'Payment Failures', 'Quota Exceeded', 'Recent Events']) {
        expect(await page.getByRole('tab', { name: new RegExp(`^${tab} \\(\\d+\\)$`) }).count()).toBe(1);
      }
      await page.getByRole('button', { name: 'Check Quota Warnings' }).click();
      await toast(page, 'Quota warnings check completed');
      expect(await page.getByText(demo().adminEmail, { exact: true }).count()).toBeGreaterThan(0);
      await saveScreenshotAt(page, 'admin-console-1280', 1280);
      await saveScreenshotAt(page, 'admin-console-375', 375);
      await page.setViewportSize({ width: 1280, height: 900 });
      expectNoPageErrors(watcher);
    });

    it('collapses the sidebar with Ctrl+B, remembers it for 7 days, and opens an 18rem sheet on a phone', async () => {
      const nav = page.getByRole('navigation', { name: 'Admin navigation' });
      const width = async () => {
        // The width transition takes 200 ms.
        await page.waitForTimeout(300);
        return (await nav.boundingBox())?.width;
      };
      expect(await width()).toBe(256);
      await page.keyboard.press('Control+b');
      expect(await width()).toBe(48);
      const cookie = (await context.cookies(ADMIN_URL)).find((c) => c.name === 'sidebar_state');
      expect(cookie?.value).toBe('false');
      const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
      await page.reload();
      await expectPage(page, DASHBOARD_HEADING);
      expect(await width()).toBe(48);
      await page.keyboard.press('Control+b');
      expect(await width()).toBe(256);

      await page.setViewportSize({ width: 375, height: 800 });
      await page.getByRole('button', { name: 'Toggle sidebar' }).click();
      const sheet = page.getByRole('dialog').getByRole('navigation', { name: 'Admin navigation' });
      await sheet.waitFor();
      expect((await page.getByRole('dialog').boundingBox())?.width).toBe(288);
      await sheet.getByRole('link', { name: 'Security Logs' }).click();
      await page.getByRole('heading', { level: 2, name: 'Security & Compliance Logs' }).waitFor();
      await page.setViewportSize({ width: 1280, height: 900 });
      expectNoPageErrors(watcher);
    });

    it('creates a client and shows its key once', async () => {
      await page.getByRole('button', { name: 'Create Client' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create Client' });
      // Spec §5: nothing is sent without both fields.
      await dialog.getByRole('button', { name: 'Create Client' }).click();
      await toast(page, 'Validation Error');
      await dialog.getByLabel('Client name').fill(clientName);
      await dialog.getByLabel('Tier').selectOption('large');
      await dialog.getByRole('button', { name: 'Create Client' }).click();
      const shown = page.getByTestId('shown-api-key');
      await shown.waitFor();
      firstKey = (await shown.innerText()).trim();
      expect(firstKey).toMatch(/^[0-9a-f]{64}$/);
      await page.getByRole('button', { name: 'Copy' }).click();
      await toast(page, 'API Key Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstKey);
      await page.getByRole('button', { name: 'Done' }).click();
      await clientRow(page, clientName).waitFor();
      // Once: after the dialog closes the key is nowhere on the page.
      expect(await page.content()).not.toContain(firstKey);
      expect((await screen(firstKey, 'Jane Doe')).status).toBe(200);

      // Search narrows the list to the new client.
      const search = page.getByRole('searchbox', { name: 'Search clients' });
      await search.fill(clientName);
      expect(await page.getByTestId('client-list').locator('li').count()).toBe(1);
      await search.fill('');

      // Look-up by API key finds it; a key nobody holds is "Client not found with this API key".
      const lookup = page.getByRole('form', { name: 'Look up a client by API key' });
      await lookup.getByLabel('API key').fill(firstKey);
      await lookup.getByRole('button', { name: 'Search' }).click();
      await page.getByTestId('lookup-result').getByText(clientName, { exact: true }).waitFor();
      await lookup.getByLabel('API key').fill('0'.repeat(64));
      await lookup.getByRole('button', { name: 'Search' }).click();
      await toast(page, 'Client not found with this API key');
      await lookup.getByLabel('API key').fill('');
      expectNoPageErrors(watcher);
    });

    it("changes the client's thresholds with a preset, and its screening status changes", async () => {
      const before = await screen(firstKey, NEAR_MATCH);
      expect([before.status, before.body.status]).toEqual([200, 'blocked']);

      await clientRow(page, clientName)
        .getByRole('button', { name: `Thresholds of ${clientName}` })
        .click();
      const editor = page.getByTestId('client-threshold-editor');
      await editor.waitFor();
      expect(await page.getByTestId('threshold-mode').innerText()).toBe('Using global thresholds');
      await editor.getByRole('button', { name: 'Strict' }).click();
      expect(await editor.getByLabel('Block threshold (HIGH_SCORE)').inputValue()).toBe('0.95');
      await editor.getByRole('button', { name: 'Save Thresholds' }).click();
      await toast(page, 'Thresholds Saved');
      await page.getByTestId('threshold-mode').filter({ hasText: 'Custom Thresholds' }).waitFor();
      expect(await clientRow(page, clientName).getByText('Custom Thresholds').count()).toBe(1);

      // The gateway that took the change forgets the client's cached configuration: the very next screen uses it.
      const after = await screen(firstKey, NEAR_MATCH);
      expect([after.status, after.body.status]).toEqual([200, 'review']);

      // Spec §5: a high score not above the medium one is refused before sending.
      await editor.getByLabel('Block threshold (HIGH_SCORE)').fill('0.5');
      await editor.getByRole('button', { name: 'Save Thresholds' }).click();
      await toast(page, 'Validation Error');
      expect(await page.getByText('HIGH_SCORE must be greater than MEDIUM_SCORE', { exact: true }).isVisible()).toBe(
        true,
      );
      expectNoPageErrors(watcher);
    });

    it('pins the client to an older matching algorithm; its next screen runs and names it (issue #32)', async () => {
      // vigil-v3 scores a listed name plus a word as that name less a penalty; vigil-v2 did not.
      const before = await screen(firstKey, 'Jong Un Kim Sr');
      expect([before.status, before.body.algorithm]).toEqual([200, 'vigil-v3']);
      const editor = page.getByTestId('client-threshold-editor');
      await editor.getByRole('button', { name: 'Strict' }).click();
      await editor.getByLabel('Matching algorithm').selectOption('vigil-v2');
      await editor.getByRole('button', { name: 'Save Thresholds' }).click();
      await toast(page, 'Thresholds Saved');
      const after = await screen(firstKey, 'Jong Un Kim Sr');
      expect([after.status, after.body.algorithm]).toEqual([200, 'vigil-v2']);
      expect(after.body.topScore).toBeLessThan(before.body.topScore!);
      // The preset buttons change scores only: the pin stays.
      await editor.getByRole('button', { name: 'Strict' }).click();
      expect(await editor.getByLabel('Matching algorithm').inputValue()).toBe('vigil-v2');
      expectNoPageErrors(watcher);
    });

    it('regenerates the key after confirmation: the old one gets 401 within 5 s', async () => {
      await clientRow(page, clientName)
        .getByRole('button', { name: `Regenerate the API key of ${clientName}` })
        .click();
      // One click kills nothing: the console asks first, and Cancel leaves the key working (issue #36).
      const asked = page.getByRole('alertdialog');
      await asked.getByText('Regenerate API key?', { exact: true }).waitFor();
      await asked.getByRole('button', { name: 'Cancel' }).click();
      await asked.waitFor({ state: 'detached' });
      expect((await screen(firstKey, 'Jane Doe')).status).toBe(200);
      await clientRow(page, clientName)
        .getByRole('button', { name: `Regenerate the API key of ${clientName}` })
        .click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Regenerate Key' }).click();
      await toast(page, 'API key regenerated successfully');
      const shown = page.getByTestId('shown-api-key');
      await shown.waitFor();
      secondKey = (await shown.innerText()).trim();
      expect(secondKey).toMatch(/^[0-9a-f]{64}$/);
      expect(secondKey).not.toBe(firstKey);
      await page.getByRole('button', { name: 'Done' }).click();
      const took = await keyAnswers(firstKey, 401);
      console.info(`the regenerated-away key got 401 after ${took} ms`);
      expect(took).toBeLessThanOrEqual(KEY_DEADLINE_MS);
      expect((await screen(secondKey, 'Jane Doe')).status).toBe(200);
      expectNoPageErrors(watcher);
    });

    it('revokes the key after confirmation: it gets 401 within 5 s, and the key status says so', async () => {
      await clientRow(page, clientName)
        .getByRole('button', { name: `Revoke the API key of ${clientName}` })
        .click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke Key' }).click();
      await clientRow(page, clientName).getByText('revoked').waitFor();
      const took = await keyAnswers(secondKey, 401);
      console.info(`the revoked key got 401 after ${took} ms`);
      expect(took).toBeLessThanOrEqual(KEY_DEADLINE_MS);

      await clientRow(page, clientName)
        .getByRole('button', { name: `Key status of ${clientName}` })
        .click();
      const status = page.getByTestId('key-status').locator('[data-key-status]');
      await status.waitFor();
      expect(await status.getAttribute('data-key-status')).toBe('revoked');
      await page.keyboard.press('Escape');
      expectNoPageErrors(watcher);
    });

    it('exports the security logs as CSV, and opens a row in the details modal', async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export to CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^security-logs-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readFile((await download.path())!, 'utf8');
      expect(csv.split(/\r?\n/)[0]).toBe(
        'id,event,timestamp,ip,endpoint,method,admin_email,client_name,client_id,user_id,request_id,reason,hash',
      );
      expect(csv).toContain('ADMIN_ACCESS');
      await toast(page, 'Export Successful');

      await page.getByTestId('security-log-rows').locator('tbody tr').first().click();
      const details = page.getByTestId('log-details');
      await details.waitFor();
      expect(JSON.parse(await details.innerText())).toHaveProperty('endpoint');
      await page.keyboard.press('Escape');

      // A search that matches nothing, 300 ms after typing, shows the empty state.
      await page.getByRole('searchbox', { name: 'Search security logs' }).fill('no-such-thing-anywhere');
      await page.getByText('No logs found matching your criteria', { exact: true }).waitFor();
      expectNoPageErrors(watcher);
    });

    it('refreshes a changed list and shows its new version and history', async () => {
      const sdn = join(listsDir(), 'ofac_sdn', 'sdn.csv');
      const original = await readFile(sdn, 'utf8');
      const row = page.locator('tr[data-source="ofac-sdn"]');
      const before = Number(await row.getByTestId('list-version').innerText());
      try {
        await appendFile(sdn, '99001,"E2E CONSOLE TESTENTITY",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n');
        await row.getByRole('button', { name: /^Refresh .* now$/ }).click();
        await toast(page, 'List updated');
        await page.waitForFunction(
          ([element, old]) => Number(element?.textContent) > (old as number),
          [await row.getByTestId('list-version').elementHandle(), before] as const,
          { timeout: 15_000 },
        );
        await row.getByRole('button', { name: /^Version history of / }).click();
        const history = page.getByTestId('list-versions');
        await history.waitFor();
        const newest = history.locator('tbody tr').first();
        expect(Number(await newest.getAttribute('data-version'))).toBeGreaterThan(before);
        expect((await newest.innerText()).replace(/\s+/g, ' ')).toMatch(/current .* \+1 0 −0 /);
        await saveScreenshotAt(page, 'admin-console-list-history-1280', 1280);
        await page.keyboard.press('Escape');
      } finally {
        // Leave the list as the other browser tests expect it.
        await writeFile(sdn, original);
        await adminRefresh('ofac-sdn');
      }
      expectNoPageErrors(watcher);
    });

    it('deletes the client after confirmation', async () => {
      await clientRow(page, clientName)
        .getByRole('button', { name: `Delete ${clientName}` })
        .click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Client deleted successfully');
      await clientRow(page, clientName).waitFor({ state: 'detached' });
      expectNoPageErrors(watcher);
    });

    // Issue #37: billing keeps a deleted client's customer; the section and both checks answered 404 after it.
    it('keeps Quota Monitoring and both checks working after a paying client was deleted', async () => {
      const email = uniqueEmail('quota-deleted');
      await createSubscribedUser(email, 'quota-deleted-passphrase', 'starter');
      await page.reload();
      await expectPage(page, DASHBOARD_HEADING);
      await clientRow(page, email)
        .getByRole('button', { name: `Delete ${email}` })
        .click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Client deleted successfully');
      await page.reload();
      await expectPage(page, DASHBOARD_HEADING);
      await page.getByRole('tab', { name: /^Quota Warnings \(\d+\)$/ }).waitFor();
      expect(await page.getByText('Failed to load quota monitoring data. Please try again.').count()).toBe(0);
      await page.getByRole('button', { name: 'Check Quota Warnings' }).click();
      await toast(page, 'Quota warnings check completed');
      await page.getByRole('button', { name: 'Check Payment Failures' }).click();
      await toast(page, 'Payment failures check completed');
      expectNoPageErrors(watcher);
    });
  });
});
