import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The six services the gateway must report for the platform to be "up". */
export const EXPECTED_SERVICES = ['gateway', 'auth', 'screening', 'monitoring', 'billing', 'audit'] as const;

export const WEB_URL = process.env.WEB_URL ?? 'http://127.0.0.1:3000';
export const ADMIN_URL = process.env.ADMIN_URL ?? 'http://127.0.0.1:3001';

/** How long the status widget may take to turn green: the stack may still be settling, and the widget polls every 10 s. */
export const GREEN_WITHIN_MS = 30_000;

const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh page that fails the test on any uncaught error in the app. */
export async function openPage(browser: Browser, url: string): Promise<{ page: Page; pageErrors: Error[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
  if (response === null || !response.ok()) {
    throw new Error(
      `GET ${url} answered ${response?.status() ?? 'nothing'}; is the app running (npm start, or vite preview)?`,
    );
  }
  return { page, pageErrors };
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const path = `${RESULTS_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Waits until the status widget shows a green verdict, then returns its headline
 * and the visible text of each service row, keyed by service name, so a failed
 * assertion names the service that is not up.
 */
export async function waitForGreenStatus(page: Page): Promise<{ headline: string; rows: Record<string, string> }> {
  const widget = page.getByRole('region', { name: 'System status' });
  const handle = await widget.elementHandle();
  try {
    await page.waitForFunction((element) => element?.getAttribute('data-state') === 'ok', handle, {
      timeout: GREEN_WITHIN_MS,
    });
  } catch {
    const shown = (await widget.getByRole('status').innerText()).replace(/\s+/g, ' ');
    throw new Error(`the status widget did not turn green within ${GREEN_WITHIN_MS} ms; it shows "${shown}"`);
  }
  const rows: Record<string, string> = {};
  for (const row of await widget.getByRole('list', { name: 'Services' }).getByRole('listitem').all()) {
    const name = await row.getAttribute('data-service');
    if (name !== null) rows[name] = (await row.innerText()).replace(/\s+/g, ' ').trim();
  }
  return { headline: await widget.getByTestId('status-headline').innerText(), rows };
}

export const GATEWAY_URL = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

/** What a page did wrong while a test watched it: console errors, uncaught errors and failed requests. */
export type PageProblems = { consoleErrors: string[]; pageErrors: string[]; failedRequests: string[] };

/**
 * Records every console error, uncaught error and failed request (no answer, or
 * an HTTP status of 400 or more) from now on. `reset()` starts a fresh record,
 * so one page can be reused for several pages of the site.
 */
export function watchPage(page: Page): { problems: PageProblems; reset: () => void } {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  page.on('console', (message) => {
    // Chromium also logs every failed request as a console error; those are counted once, as requests.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.consoleErrors.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    // Navigating away cancels pending requests; that is not a failure of the page.
    if (reason !== 'net::ERR_ABORTED') problems.failedRequests.push(`${request.method()} ${request.url()} ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.failedRequests.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`);
    }
  });
  return {
    problems,
    reset: () => {
      problems.consoleErrors.length = 0;
      problems.pageErrors.length = 0;
      problems.failedRequests.length = 0;
    },
  };
}

/**
 * True when the gateway has no route for this path yet (its 404 ROUTE_NOT_FOUND).
 * Tests use it to tell "this backend has not landed" apart from "this backend is broken":
 * only the first is allowed to show the page's error state.
 */
export async function gatewayLacksRoute(path: string, init?: RequestInit): Promise<boolean> {
  const response = await fetch(`${GATEWAY_URL}${path}`, init);
  if (response.status !== 404) return false;
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  return body.code === 'ROUTE_NOT_FOUND';
}

export async function saveScreenshotAt(page: Page, name: string, width: number): Promise<string> {
  await page.setViewportSize({ width, height: 900 });
  // Let responsive layout and lazy images settle before the full-page capture.
  await page.waitForTimeout(150);
  return saveScreenshot(page, name);
}
