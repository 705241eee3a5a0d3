import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  createSubscribedUser,
  expectPage,
  launchChromium,
  saveScreenshotAt,
  seriousViolations,
  signInWithRefreshToken,
  uniqueEmail,
  watchPage,
  WEB_URL,
  type PageWatcher,
} from './browser.js';

const PASSWORD = 'dashboard-e2e-passphrase';

/**
 * The demo client's plan: a Large subscriber, made through the real sign-up, checkout and
 * sandbox payment (the browser stack does not run the demo seed). The fresh-machine helper is
 * seeding the demo client as a billing customer; until that lands this is the minimal version.
 */
async function demoClientSession(tier: 'starter' | 'large' = 'large') {
  return createSubscribedUser(uniqueEmail(`demo-${tier}`), PASSWORD, tier);
}

/** Every dashboard page and its own h1 (spec §2). */
const PAGES: readonly [string, string][] = [
  ['api-screen', 'Entity Screening'],
  ['bulk-search', 'Bulk Search'],
  ['status', 'API Status'],
  ['review-queue', 'Review Queue'],
  ['alerts', 'Sanction Alerts'],
  ['logs', 'Screening Logs'],
  ['lists', 'Sanctions Lists'],
  ['client-lists', 'Client Lists'],
  ['ongoing-monitoring', 'Ongoing Monitoring'],
  ['datasets', 'My Datasets'],
  ['downloads', 'Downloads & Reports'],
  ['settings', 'Account Settings'],
];

/**
 * Pastes text into a field as a browser does: one input event for the whole text. (Playwright's
 * fill types a multi-line text line by line, an input event per line break, which no user does.)
 */
async function paste(page: Page, label: string, text: string) {
  await page.getByLabel(label).evaluate((element, value) => {
    const field = element as HTMLTextAreaElement;
    field.focus();
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(field, value);
    field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: value }));
  }, text);
}

/**
 * How far the page is wider than the viewport, once layout has settled after a resize: the
 * charts re-measure through a ResizeObserver a frame or two after the viewport narrows, so one
 * early reading can show the old width. An overflow that lasts 3 s is real and is returned.
 */
async function widthOverflow(page: Page): Promise<number> {
  const measure = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const deadline = Date.now() + 3_000;
  let overflow = await measure();
  while (overflow > 0 && Date.now() < deadline) {
    await page.waitForTimeout(100);
    overflow = await measure();
  }
  return overflow;
}

function expectClean(watcher: PageWatcher) {
  expect(watcher.problems.consoleErrors).toEqual([]);
  expect(watcher.problems.pageErrors).toEqual([]);
  expect(watcher.problems.failedRequests).toEqual([]);
}

describe('the screening dashboard, signed in as the demo client', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watcher: PageWatcher;

  beforeAll(async () => {
    browser = await launchChromium();
    const session = await demoClientSession('large');
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    watcher = watchPage(page);
    await signInWithRefreshToken(page, session.refresh_token);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    watcher.reset();
  });

  it('sends the bare /dashboard/screening to Entity Screening', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening`);
    await expectPage(page, 'Entity Screening');
    expect(new URL(page.url()).pathname).toBe('/dashboard/screening/api-screen');
    expectClean(watcher);
  });

  it.each(PAGES)('/dashboard/screening/%s shows "%s", clean, accessible, at 1280 and 375 px', async (path, heading) => {
    await page.goto(`${WEB_URL}/dashboard/screening/${path}`);
    await expectPage(page, heading);
    // Ongoing Monitoring keeps its live stream open for good, so the network never idles there:
    // wait for the stream to be subscribed instead.
    if (path === 'ongoing-monitoring') {
      await page.locator('[data-testid="live-state"][data-state="live"]').waitFor({ timeout: 20_000 });
    } else {
      await page.waitForLoadState('networkidle');
    }
    // The sidebar's fourteen entries are there on desktop.
    expect(
      await page.getByRole('navigation', { name: 'Dashboard navigation' }).getByRole('link').count(),
    ).toBeGreaterThanOrEqual(14);
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshotAt(page, `dashboard-${path}-1280`, 1280);
    await saveScreenshotAt(page, `dashboard-${path}-375`, 375);
    expect(await widthOverflow(page)).toBeLessThanOrEqual(0);
    expectClean(watcher);
  });

  it('collapses the sidebar with Ctrl+B and remembers it in a 7-day cookie', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/status`);
    await expectPage(page, 'API Status');
    const nav = page.getByRole('navigation', { name: 'Dashboard navigation' });
    expect(await nav.getAttribute('data-collapsed')).toBe('false');
    await page.keyboard.press('Control+b');
    await page.waitForFunction(
      () => document.querySelector('nav[aria-label="Dashboard navigation"]')?.getAttribute('data-collapsed') === 'true',
    );
    // The width animates: wait for it to settle on the collapsed rail (3rem).
    await page.waitForFunction(() => {
      const box = document.querySelector('nav[aria-label="Dashboard navigation"]')?.getBoundingClientRect();
      return box !== undefined && Math.round(box.width) === 48;
    });
    expect(Math.round((await nav.boundingBox())!.width)).toBe(48);
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    await page.reload();
    await expectPage(page, 'API Status');
    expect(await page.getByRole('navigation', { name: 'Dashboard navigation' }).getAttribute('data-collapsed')).toBe(
      'true',
    );
    await page.keyboard.press('Control+b');
    await page.waitForFunction(
      () =>
        document.querySelector('nav[aria-label="Dashboard navigation"]')?.getAttribute('data-collapsed') === 'false',
    );
    await page.waitForFunction(() => {
      const box = document.querySelector('nav[aria-label="Dashboard navigation"]')?.getBoundingClientRect();
      return box !== undefined && Math.round(box.width) === 256;
    });
    expect(Math.round((await nav.boundingBox())!.width)).toBe(256);
    expectClean(watcher);
  });

  it('screens "Nicolas Maduro Moros" as blocked with the token alignment and list version, and "Margaret Thornbury" as clear', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/api-screen`);
    await expectPage(page, 'Entity Screening');
    await page.getByLabel(/Entity name/).fill('Nicolas Maduro Moros');
    await page.getByRole('button', { name: 'Start Screening' }).click();
    const first = page.getByTestId('screen-result').first();
    await first.waitFor({ timeout: 20_000 });
    expect(await first.locator('[data-status]').first().getAttribute('data-status')).toBe('blocked');
    await page.getByText('BLOCKED', { exact: true }).first().waitFor();
    await first.getByRole('button', { name: 'View Details' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('token-alignment').waitFor({ timeout: 15_000 });
    const alignment = await dialog.getByTestId('token-alignment').innerText();
    expect(alignment.toLowerCase()).toContain('maduro');
    expect(await dialog.getByTestId('list-version').innerText()).toMatch(/^v\d+/);
    await saveScreenshotAt(page, 'dashboard-journey-maduro-details', 1280);
    await page.keyboard.press('Escape');

    await page.getByLabel(/Entity name/).fill('Margaret Thornbury');
    await page.getByRole('button', { name: 'Start Screening' }).click();
    await page.getByTestId('clear-panel').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('clear-panel').innerText()).toContain('CLEAR - No Matches Found');
    await saveScreenshotAt(page, 'dashboard-journey-thornbury-clear', 1280);
    expectClean(watcher);
  });

  it('bulk-screens 5,000 pasted names as a job: the bar moves, a reload keeps the job, the CSV has 5,000 rows', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/bulk-search`);
    await expectPage(page, 'Bulk Search');
    const names = Array.from({ length: 5_000 }, (_, i) => `Bulk Journey Person ${i}`);
    await paste(page, 'Names, one per line', names.join('\n'));
    await page.getByTestId('entity-count').getByText('5,000 entities', { exact: true }).waitFor();
    await page.getByLabel(/Background job/).check();
    await page.getByRole('button', { name: 'Start Background Job' }).click();
    await page.getByText('Bulk Job Started', { exact: true }).waitFor({ timeout: 20_000 });

    const bar = page.getByRole('progressbar', { name: 'Bulk screening progress' });
    const seen = new Set<string>();
    const record = async () => seen.add((await bar.getAttribute('aria-valuenow')) ?? '');
    await record();
    // A reload while the job runs (or just after): the page finds the job again.
    await page.reload();
    await expectPage(page, 'Bulk Search');
    await page.getByTestId('job-progress').getByText(/^Job /).waitFor({ timeout: 15_000 });
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      await record();
      if ((await page.getByTestId('job-progress').innerText()).startsWith('Job completed')) break;
      await page.waitForTimeout(250);
    }
    await record();
    expect(await page.getByTestId('job-progress').innerText()).toMatch(/^Job completed: 5,000 of 5,000 names/);
    expect(seen.has('100')).toBe(true);
    expect([...seen].some((v) => Number(v) < 100)).toBe(true);

    await page.getByRole('tab', { name: 'Results' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^bulk-screening-results-.*\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.trim().split('\n').length - 1).toBe(5_000);
    await saveScreenshotAt(page, 'dashboard-journey-bulk-results', 1280);
    expectClean(watcher);
  }, 240_000);

  it('refuses bad input with the spec’s words and sends nothing the server would refuse', async () => {
    const sent: string[] = [];
    const onRequest = (request: { url: () => string; method: () => string }) => {
      if (request.method() === 'POST') sent.push(new URL(request.url()).pathname);
    };
    page.on('request', onRequest);
    try {
      // An empty name: the button is disabled, Enter gives "Input Required".
      await page.goto(`${WEB_URL}/dashboard/screening/api-screen`);
      await expectPage(page, 'Entity Screening');
      expect(await page.getByRole('button', { name: 'Start Screening' }).isDisabled()).toBe(true);
      await page.getByLabel(/Entity name/).press('Enter');
      await page.getByText('Input Required', { exact: true }).waitFor();
      await page
        .getByText('Please enter either an entity name or email address to screen', { exact: true })
        .first()
        .waitFor();

      // 1,001 lines in the instant tab.
      await page.goto(`${WEB_URL}/dashboard/screening/bulk-search`);
      await expectPage(page, 'Bulk Search');
      await paste(page, 'Names, one per line', Array.from({ length: 1_001 }, (_, i) => `Name ${i}`).join('\n'));
      await page.getByTestId('entity-count').getByText('1,001 entities', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Start Bulk Search' }).click();
      await page.getByText('Batch Size Too Large', { exact: true }).waitFor();
      await page.getByText('Maximum 1000 entities allowed per batch', { exact: true }).waitFor();

      // A CSV of 10 MB + 1 byte.
      await page.getByTestId('csv-input').setInputFiles({
        name: 'too-big.csv',
        mimeType: 'text/csv',
        buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a'),
      });
      await page.getByText('File too large', { exact: true }).waitFor();
      await page.getByText('Please select a file smaller than 10MB.', { exact: true }).waitFor();
      await page
        .getByTestId('csv-input')
        .setInputFiles({ name: 'names.txt', mimeType: 'text/plain', buffer: Buffer.from('a\n') });
      await page.getByText('Please select a CSV file.', { exact: true }).waitFor();
    } finally {
      page.off('request', onRequest);
    }
    expect(sent.filter((path) => path === '/api/screen' || path === '/api/sanctions/bulk-search')).toEqual([]);
    expectClean(watcher);
  });

  it('shows live figures where the spec had fixed ones: the service as /health finds it, and the lists\u2019 entity total', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/status`);
    await expectPage(page, 'API Status');
    const service = page.locator('[data-service-status]');
    await service.waitFor();
    expect(await service.getAttribute('data-service-status')).toBe('ok');
    expect(await service.innerText()).toBe('Online');
    const version = (
      JSON.parse(await readFile(new URL('../../services/libs/platform/package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
    await page.getByText(`v${version}`, { exact: true }).waitFor();
    await page.getByText(/^\d+ ms$/).waitFor();

    await page.goto(`${WEB_URL}/dashboard/screening/lists`);
    await expectPage(page, 'Sanctions Lists');
    const total = page.getByText('Total entities').locator('..');
    await total.waitFor();
    const counts = await page
      .getByText('Entities', { exact: true })
      .locator('xpath=following-sibling::*[1]')
      .allInnerTexts();
    expect(counts.length).toBeGreaterThan(0);
    const sum = counts.reduce((n, text) => n + Number(text.replace(/\D/g, '')), 0);
    expect(sum).toBeGreaterThan(0);
    expect(await total.innerText()).toContain(new Intl.NumberFormat('en-GB').format(sum));
    // Issue #36: each feed the plans name says whether this deployment has loaded it, as the
    // list catalogue (the gateway's /api/lists) says: loaded feeds name their lists, the rest say so.
    const catalogue = (await (await fetch(`${WEB_URL}/api/lists`)).json()) as {
      lists: { feed: string; name: string; version: number | null }[];
    };
    const loaded = new Set(catalogue.lists.filter((l) => l.version !== null).map((l) => l.feed));
    const coverage = page.getByTestId('feed-coverage');
    const rows = coverage.locator('tr[data-feed]');
    expect(await rows.count()).toBeGreaterThan(5);
    for (const row of await rows.all()) {
      const feed = (await row.getAttribute('data-feed'))!;
      expect([feed, await row.getAttribute('data-loaded')]).toEqual([feed, String(loaded.has(feed))]);
      if (!loaded.has(feed)) expect(await row.innerText()).toContain('Not loaded in this deployment');
    }
    expect(loaded.has('ofac')).toBe(true);
    expect(await coverage.locator('th', { hasText: '(yours)' }).count()).toBe(1);
    expectClean(watcher);
  });

  it('rotates the API key in Settings: confirmation, the new key shown once', async () => {
    await page.goto(`${WEB_URL}/dashboard/screening/settings`);
    await expectPage(page, 'Account Settings');
    const before = await page.getByText(/…$/).first().innerText();
    await page.getByRole('button', { name: 'Regenerate API key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate and revoke the old key' }).click();
    const key = (await page.getByTestId('new-api-key').innerText()).trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key.startsWith(before.replace('…', ''))).toBe(false);
    await page.reload();
    await expectPage(page, 'Account Settings');
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    expectClean(watcher);
  });

  it('shows a starter client its plan’s limits and the upgrade path, and no dashboard data', async () => {
    const starter = await demoClientSession('starter');
    const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const starterPage = await other.newPage();
    const starterWatcher = watchPage(starterPage);
    const dataCalls: string[] = [];
    starterPage.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (/^\/api\/(client\/(logs|sanction-alerts|usage-history|reports)|sanctions\/)/.test(path)) dataCalls.push(path);
    });
    await signInWithRefreshToken(starterPage, starter.refresh_token);
    await starterPage.goto(`${WEB_URL}/dashboard/screening/logs`);
    await expectPage(starterPage, 'Screening dashboard');
    const notice = starterPage.getByTestId('plan-without-dashboard');
    expect(await notice.innerText()).toContain('What your Starter plan includes');
    expect(await notice.innerText()).toContain('1,000');
    expect(await notice.getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/upgrade');
    expect(await starterPage.getByTestId('log-row').count()).toBe(0);
    await saveScreenshotAt(starterPage, 'dashboard-starter-tier', 1280);
    expect(dataCalls).toEqual([]);
    expectClean(starterWatcher);
    await other.close();
  }, 120_000);

  describe('the spec’s words, for a client of its own (the journey above leaves alerts behind)', () => {
    let other: BrowserContext;
    let fresh: Page;

    beforeAll(async () => {
      const session = await demoClientSession('large');
      other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      fresh = await other.newPage();
      await signInWithRefreshToken(fresh, session.refresh_token);
    }, 120_000);

    afterAll(async () => {
      await other?.close();
    });

    it('Alerts with none yet: "No alerts found"', async () => {
      await fresh.goto(`${WEB_URL}/dashboard/screening/alerts`);
      await expectPage(fresh, 'Sanction Alerts');
      await fresh.getByText('No alerts found', { exact: true }).waitFor();
      await fresh.getByText('Alerts are generated when potential matches are detected.', { exact: true }).waitFor();
    });

    it('Screening Logs: a failed Export JSON says "Failed to export logs"', async () => {
      await fresh.goto(`${WEB_URL}/dashboard/screening/logs`);
      await expectPage(fresh, 'Screening Logs');
      const report = '**/api/client/reports/screening-logs';
      await fresh.route(report, (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Service Unavailable',
            status: 503,
            code: 'SERVICE_UNAVAILABLE',
            detail: 'Reports are unavailable.',
          }),
        }),
      );
      try {
        await fresh.getByRole('button', { name: 'Export JSON' }).click();
        await fresh.getByText('Failed to export logs', { exact: true }).waitFor();
      } finally {
        await fresh.unroute(report);
      }
    });

    it('Account Settings: the four areas under the spec’s names', async () => {
      await fresh.goto(`${WEB_URL}/dashboard/screening/settings`);
      await expectPage(fresh, 'Account Settings');
      for (const area of ['Overview', 'Profile', 'API key management', 'Notification preferences']) {
        await fresh.getByRole('heading', { name: area, exact: true }).waitFor();
      }
    });

    it('Bulk Search results: each row has View Details', async () => {
      await fresh.goto(`${WEB_URL}/dashboard/screening/bulk-search`);
      await expectPage(fresh, 'Bulk Search');
      await paste(fresh, 'Names, one per line', 'Nicolas Maduro Moros\nMargaret Thornbury');
      await fresh.getByRole('button', { name: 'Start Bulk Search' }).click();
      const details = fresh.getByRole('button', { name: 'View Details for Nicolas Maduro Moros' });
      await details.waitFor({ timeout: 20_000 });
      expect(await details.innerText()).toBe('View Details');
      await details.click();
      await fresh.getByRole('dialog').waitFor();
    });
  });
});
