import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { API_SAMPLES, SCREEN_SAMPLE, curlCommand } from '../app/src/docs/samples.js';
import {
  expectNoPageErrors,
  expectPage,
  GATEWAY_URL,
  HEADINGS,
  launchChromium,
  openWatchedPage,
  WEB_URL,
} from './browser.js';

function demoApiKey(): string {
  const key = process.env.DEMO_CLIENT_API_KEY;
  if (!key)
    throw new Error('DEMO_CLIENT_API_KEY is not set: run the browser tests through infra/scripts/browser-tests.mjs');
  return key;
}

/** Runs the curl text a page shows, as shown, with the two variables set; answers the status and body. */
function runCurl(command: string): { status: number; body: unknown } {
  const output = execFileSync('bash', ['-c', `${command} -sS -w '\\n%{http_code}'`], {
    env: { ...process.env, VIGIL_API_URL: GATEWAY_URL, VIGIL_API_KEY: demoApiKey() },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const cut = output.lastIndexOf('\n');
  return { status: Number(output.slice(cut + 1)), body: JSON.parse(output.slice(0, cut)) };
}

// Every request the public site shows an integrator is run here, exactly as the page prints it.
describe('the site’s code samples', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  for (const sample of API_SAMPLES) {
    it(`${sample.method} ${sample.path} (${sample.id}) answers 2xx with the demo client's key`, () => {
      const { status, body } = runCurl(curlCommand(sample));
      expect(status >= 200 && status < 300 ? 'a 2xx answer' : `${status} ${JSON.stringify(body)}`).toBe('a 2xx answer');
      if (sample.id === 'screen') expect(Array.isArray((body as { results: unknown[] }).results)).toBe(true);
      // The evidence export answers a server holding the key alone, not only a signed-in person.
      if (sample.id === 'evidence') expect(body).toMatchObject({ chain: expect.stringMatching(/^client:/) });
    });
  }

  it('shows those samples, word for word, on the home page and the Docs page', async () => {
    const { context, page, watcher } = await openWatchedPage(browser);
    await page.goto(WEB_URL);
    await expectPage(page, HEADINGS.home);
    expect(await page.locator(`[data-sample="${SCREEN_SAMPLE.id}"]`).innerText()).toBe(curlCommand(SCREEN_SAMPLE));

    await page.goto(`${WEB_URL}/docs`);
    await expectPage(page, HEADINGS.docs);
    await page.getByRole('tab', { name: 'Examples' }).click();
    for (const sample of API_SAMPLES) {
      expect(await page.locator(`[data-sample="${sample.id}"]`).innerText()).toBe(curlCommand(sample));
    }
    // The SDK tab shows each SDK README's examples, which sdk.e2e.ts and sdks.e2e.ts run, and its webhook check.
    await page.getByRole('tab', { name: 'SDKs' }).click();
    for (const [sdk, language] of [
      ['typescript', 'js'],
      ['python', 'python'],
      ['java', 'java'],
      ['go', 'go'],
    ] as const) {
      const readme = readFileSync(fileURLToPath(new URL(`../../sdk/${sdk}/README.md`, import.meta.url)), 'utf8');
      const block = (text: string) => new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(text)![1]!.trim();
      expect(await page.locator(`[data-sample="sdk-${sdk}"]`).innerText()).toBe(block(readme));
      const webhook = block(readme.split('\n## Verifying a webhook\n')[1]!);
      expect(await page.locator(`[data-sample="sdk-${sdk}-webhook"]`).innerText()).toBe(webhook);
      const local = block(readme.split('\n## Receiving a test webhook on 127.0.0.1\n')[1]!);
      expect(await page.locator(`[data-sample="sdk-${sdk}-local-webhook"]`).innerText()).toBe(local);
    }
    const sdks = page.getByRole('list', { name: 'SDKs' });
    for (const planned of ['PHP', 'C#', 'Ruby']) {
      expect(await sdks.getByRole('listitem').filter({ hasText: planned }).innerText()).toContain('Planned');
    }
    // The base URL is the gateway's, as its OpenAPI document names it, not the web host.
    await page.getByRole('tab', { name: 'Getting started' }).click();
    expect(await page.getByTestId('api-base-url').innerText()).toBe(new URL(GATEWAY_URL).origin);
    expectNoPageErrors(watcher);
    await context.close();
  });
});
