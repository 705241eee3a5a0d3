// Issue #37: the mail the product promises leaves it. Auth and billing send real SMTP to the local
// catcher npm start runs (infra/scripts/mail-catcher.mjs); these tests read its web inbox as a person would.
import type { Browser, Page } from 'playwright-core';
import pg from 'pg';
import { GATEWAY_URL, createSubscribedUser, launchChromium, uniqueEmail } from './browser.js';

const INBOX_URL = process.env.MAIL_INBOX_URL ?? 'http://127.0.0.1:8025';
const PASSWORD = 'mail-e2e-passphrase';

/** Opens the inbox filtered to one address until a subject matching `subject` is listed, then opens that mail. */
async function openMail(page: Page, to: string, subject: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.goto(`${INBOX_URL}/?to=${encodeURIComponent(to)}`);
    const link = page.getByRole('link', { name: subject }).first();
    if ((await link.count()) > 0) {
      await link.click();
      await page.getByRole('heading', { level: 1, name: subject }).waitFor();
      return page.locator('pre').innerText();
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} in ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('mail in the local inbox', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("holds the demo client's welcome mail, naming its API key", async () => {
    const email = process.env.DEMO_CLIENT_EMAIL!;
    const apiKey = process.env.DEMO_CLIENT_API_KEY!;
    const text = await openMail(page, email, /^Your Vigil Large plan is active$/);
    // The demo client's key was made by the seed before it subscribed: the mail names it by its prefix.
    const prefix = /prefix (\S+)\)/.exec(text)?.[1];
    expect(prefix).toBeDefined();
    expect(apiKey.startsWith(prefix!)).toBe(true);
    expect(text).toMatch(/Monthly quota: [\d,]+ screenings/);
  });

  it("delivers a new client's API key that screens, and a quota warning when the gateway counts 80%", async () => {
    const email = uniqueEmail('mail-quota');
    await createSubscribedUser(email, PASSWORD, 'starter');
    const welcome = await openMail(page, email, /^Your Vigil Starter plan is active$/);
    const apiKey = /Your API key: (\S+)/.exec(welcome)?.[1];
    expect(apiKey).toMatch(/^[0-9a-f]{64}$/);

    // The gateway's counter for the client's billing period at 799 of 1,000: the next name crosses 80%.
    const [customer] = await query<{ client_id: string; period_start: Date }>(
      'SELECT client_id, period_start FROM billing.customers WHERE email = $1',
      [email],
    );
    await query(
      `INSERT INTO gateway.quota_usage (client_id, period, used) VALUES ($1, $2, 799)
       ON CONFLICT (client_id, period) DO UPDATE SET used = EXCLUDED.used`,
      [customer!.client_id, customer!.period_start.toISOString()],
    );
    const screened = await fetch(`${GATEWAY_URL}/api/v1/screen`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey! },
      body: JSON.stringify({ name: 'John Smith' }),
    });
    expect(screened.status).toBe(200);
    const warning = await openMail(page, email, /^You have used \d+% of your Vigil quota$/);
    expect(warning).toMatch(/has used \d+ of 1000 screenings this billing period/);
  });
});
