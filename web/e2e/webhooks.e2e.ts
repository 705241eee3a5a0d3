import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  GATEWAY_URL,
  createSubscribedUser,
  expectPage,
  launchChromium,
  linkFromMail,
  passwordGrant,
  readMailbox,
  signInWithRefreshToken,
  uniqueEmail,
  watchPage,
  WEB_URL,
  type PageWatcher,
} from './browser.js';

const PASSWORD = 'webhooks-e2e-passphrase';

type Received = { headers: Record<string, string>; body: string };

/**
 * A bank's receiver on 127.0.0.1 (the browser stack runs monitoring in local mode,
 * WEBHOOK_ALLOW_LOOPBACK): outside the product, so a plain server that answers 204.
 */
async function receiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/vigil-hooks`;
  return { url, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

const verifies = (secret: string, { headers, body }: Received) => {
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': headers['webhook-id']!,
      'webhook-timestamp': headers['webhook-timestamp']!,
      'webhook-signature': headers['webhook-signature']!,
    });
    return true;
  } catch {
    return false;
  }
};

/** The secret the page shows once, then closes its dialog. */
async function shownSecret(page: Page): Promise<string> {
  const secret = (await page.getByTestId('webhook-secret').innerText()).trim();
  await page.getByRole('button', { name: 'Done' }).click();
  return secret;
}

/** Issue #37: the dashboard's Webhooks screen, for the owner and for an analyst of the same team. */
describe('the Webhooks screen', () => {
  let browser: Browser;
  let owner: Page;
  let watcher: PageWatcher;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const ownerEmail = uniqueEmail('webhooks-owner');

  beforeAll(async () => {
    browser = await launchChromium();
    hook = await receiver();
    const session = await createSubscribedUser(ownerEmail, PASSWORD, 'large');
    owner = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    watcher = watchPage(owner);
    await signInWithRefreshToken(owner, session.refresh_token);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await hook?.close();
  });

  it('registers an endpoint, sends it a signed test event, shows the delivery, rotates the secret and deletes it', async () => {
    await owner.goto(`${WEB_URL}/dashboard/screening/webhooks`);
    await expectPage(owner, 'Webhooks');
    await owner.getByText('No webhooks yet', { exact: true }).waitFor();

    // Checked before sending: an address that is not a URL.
    await owner.getByLabel('Endpoint URL').fill('not a url');
    await owner.getByRole('button', { name: 'Register webhook' }).click();
    await owner.getByText('Enter an https:// URL.', { exact: true }).waitFor();

    await owner.getByLabel('Endpoint URL').fill(hook.url);
    await owner.getByRole('button', { name: 'Register webhook' }).click();
    await owner.getByRole('heading', { name: 'Your signing secret' }).waitFor();
    const first = await shownSecret(owner);
    expect(first).toMatch(/^whsec_/);
    const card = owner.getByTestId('webhook-list').locator('li').filter({ hasText: hook.url });
    await card.waitFor();

    await card.getByRole('button', { name: 'Send test event' }).click();
    await owner.getByText('Test event delivered', { exact: true }).waitFor({ timeout: 20_000 });
    expect(hook.received).toHaveLength(1);
    expect(JSON.parse(hook.received[0]!.body)).toMatchObject({ type: 'webhook.test' });
    expect(verifies(first, hook.received[0]!)).toBe(true);
    const deliveries = card.getByRole('table', { name: 'Deliveries' });
    await deliveries.getByText('webhook.test', { exact: true }).waitFor();
    expect(await deliveries.locator('tbody tr').first().innerText()).toMatch(/delivered\s+1\s+204/);

    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await owner.getByRole('button', { name: 'Rotate secret' }).last().click();
    await owner.getByRole('heading', { name: 'Your signing secret' }).waitFor();
    const second = await shownSecret(owner);
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    await card.getByRole('button', { name: 'Send test event' }).click();
    for (const deadline = Date.now() + 20_000; hook.received.length < 2 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.received).toHaveLength(2);
    const after = hook.received[1]!;
    expect(verifies(second, after)).toBe(true);
    expect(verifies(first, after)).toBe(false);

    await card.getByRole('button', { name: 'Delete' }).click();
    await owner.getByRole('button', { name: 'Delete webhook' }).click();
    await owner.getByText('No webhooks yet', { exact: true }).waitFor();
    expect(watcher.problems.pageErrors).toEqual([]);
  });

  it('shows an analyst the endpoints and deliveries with every action disabled, and says who may act', async () => {
    // The owner registers an endpoint through the API, then invites an analyst (a token issued now:
    // the one from sign-up predates the subscription that made the owner a member of a client).
    const signedIn = await passwordGrant(ownerEmail, PASSWORD);
    expect(signedIn.status).toBe(200);
    const { access_token: ownerToken } = (await signedIn.json()) as { access_token: string };
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` };
    const registered = await fetch(`${GATEWAY_URL}/api/monitoring/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: hook.url, event_types: ['monitoring.alert'] }),
    });
    expect(registered.status).toBe(201);
    const analystEmail = uniqueEmail('webhooks-analyst');
    const invited = await fetch(`${GATEWAY_URL}/api/team/invitations`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ email: analystEmail, member_role: 'analyst' }),
    });
    expect(invited.status).toBe(201);
    const mail = await readMailbox(analystEmail, /invited to join/i);
    const token = new URL(linkFromMail(mail.text, '/invitation?token=')).searchParams.get('token');
    const joined = await fetch(`${GATEWAY_URL}/auth/v1/team-invitations/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token,
        full_name: 'Ana Lyst',
        password: PASSWORD,
        confirm_password: PASSWORD,
        accepted_terms: true,
      }),
    });
    expect(joined.status).toBe(200);
    const { refresh_token } = (await joined.json()) as { refresh_token: string };

    const analyst = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInWithRefreshToken(analyst, refresh_token);
    await analyst.goto(`${WEB_URL}/dashboard/screening/webhooks`);
    await expectPage(analyst, 'Webhooks');
    await analyst.getByTestId('role-note').waitFor();
    const card = analyst.getByTestId('webhook-list').locator('li').filter({ hasText: hook.url });
    await card.waitFor();
    for (const action of ['Send test event', 'Rotate secret', 'Delete'])
      expect(await card.getByRole('button', { name: action }).isDisabled()).toBe(true);
    expect(await analyst.getByRole('button', { name: 'Register webhook' }).isDisabled()).toBe(true);
    await card.getByText('No deliveries yet.', { exact: true }).waitFor();
  });
});
