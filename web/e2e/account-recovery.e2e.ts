import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import pg from 'pg';
import {
  createConfirmedUser,
  expectNoPageErrors,
  expectPage,
  GATEWAY_URL,
  HEADINGS,
  launchChromium,
  linkFromMail,
  openWatchedPage,
  saveScreenshotAt,
  uniqueEmail,
  WEB_URL,
  type PageWatcher,
  passwordGrant,
} from './browser.js';

const PASSWORD = 'recovery-e2e-passphrase';

/** Every mail the development mailbox holds for an address whose subject matches, newest first. */
async function mails(to: string, subject: RegExp): Promise<{ subject: string; text: string }[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ subject: string; text: string }>(
      'SELECT subject, text_body AS text FROM auth.mailbox WHERE recipient = $1 ORDER BY created_at DESC, id',
      [to.toLowerCase()],
    );
    return rows.filter((m) => subject.test(m.subject));
  } finally {
    await client.end();
  }
}

async function waitForMails(to: string, subject: RegExp, count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = await mails(to, subject);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`${to} has ${found.length} of ${count} mails matching ${subject}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Lets the per-account interval since the last link pass, as a user waiting a minute for mail would. */
async function ageLinks(email: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `UPDATE auth.one_time_tokens SET created_at = now() - interval '2 minutes'
        WHERE user_id = (SELECT id FROM auth.users WHERE email = $1)`,
      [email.toLowerCase()],
    );
  } finally {
    await client.end();
  }
}

/** Ten wrong passwords: the account's email is locked for the window. */
async function lock(email: string) {
  for (let i = 0; i < 10; i++) await passwordGrant(email, `wrong-guess-${i}`);
  expect((await passwordGrant(email, PASSWORD)).status).toBe(429);
}

describe('getting back into an account: resend the confirmation, unlock a locked sign-in', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watcher: PageWatcher;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  // Each test signs somebody in: a context of its own starts it signed out.
  beforeEach(async () => {
    ({ context, page, watcher } = await openWatchedPage(browser));
  });

  afterEach(async () => {
    await context?.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function signIn(email: string) {
    await page.goto(`${WEB_URL}/login`);
    await expectPage(page, HEADINGS.login);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign In' }).click();
    return form;
  }

  it('resends the confirmation link from the "Email not confirmed" notice, and the new link confirms', async () => {
    const email = uniqueEmail('resend');
    const signup = await fetch(`${GATEWAY_URL}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: 'Resend Person',
        email,
        password: PASSWORD,
        confirm_password: PASSWORD,
        accepted_terms: true,
      }),
    });
    expect(signup.status).toBe(200);
    await waitForMails(email, /confirm/i, 1);
    await ageLinks(email);

    const form = await signIn(email);
    const notice = form.getByTestId('email-not-confirmed');
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Resend confirmation email' }).click();
    await page.getByText('Confirmation email sent').first().waitFor();
    await saveScreenshotAt(page, 'resend-confirmation-1280', 1280);
    await saveScreenshotAt(page, 'resend-confirmation-375', 375);
    await page.setViewportSize({ width: 1280, height: 900 });

    const [newest, older] = await waitForMails(email, /confirm/i, 2);
    await page.goto(linkFromMail(newest!.text, '/login?type=signup'));
    await page.getByText('Email confirmed').first().waitFor({ timeout: 15_000 });
    // The first link was replaced by the new one.
    const stale = await fetch(`${GATEWAY_URL}/auth/v1/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'signup',
        token: new URL(linkFromMail(older!.text, '/login?type=signup')).searchParams.get('token'),
      }),
    });
    expect(stale.status).toBe(400);
    expectNoPageErrors(watcher);
  }, 90_000);

  it('signs a locked owner in with the password and an authenticator code on the sign-in form', async () => {
    const email = uniqueEmail('locked-mfa');
    const session = await createConfirmedUser(email, PASSWORD);
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` };
    const enrolled = (await (
      await fetch(`${GATEWAY_URL}/auth/v1/factors`, { method: 'POST', headers: auth, body: '{}' })
    ).json()) as { id: string; totp: { secret: string } };
    const app = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(enrolled.totp.secret) });
    const challenge = (await (
      await fetch(`${GATEWAY_URL}/auth/v1/factors/${enrolled.id}/challenge`, { method: 'POST', headers: auth })
    ).json()) as { id: string };
    const verified = await fetch(`${GATEWAY_URL}/auth/v1/factors/${enrolled.id}/verify`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ challenge_id: challenge.id, code: app.generate() }),
    });
    expect(verified.status).toBe(200);
    await lock(email);

    const form = await signIn(email);
    await form.getByTestId('sign-in-locked').waitFor();
    // Enrolment spent the current step's code; each works once: use the next step's.
    await form.getByLabel('Authentication code').fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await saveScreenshotAt(page, 'locked-mfa-1280', 1280);
    await saveScreenshotAt(page, 'locked-mfa-375', 375);
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    expectNoPageErrors(watcher);
  }, 90_000);

  it('unlocks a locked account with the emailed link, once', async () => {
    const email = uniqueEmail('locked-mail');
    await createConfirmedUser(email, PASSWORD);
    await lock(email);
    const [unlockMail] = await waitForMails(email, /locked/i, 1);
    const link = linkFromMail(unlockMail!.text, '/login?type=unlock');

    await page.goto(link);
    await expectPage(page, 'Unlocking your account');
    await page.getByTestId('unlock-outcome').getByText('Your account is unlocked. You can sign in now.').waitFor();
    await saveScreenshotAt(page, 'unlocked-1280', 1280);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Back to Sign In' }).click();

    await signIn(email);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    expectNoPageErrors(watcher);

    // The link works once.
    const again = await fetch(`${GATEWAY_URL}/auth/v1/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'unlock', token: new URL(link).searchParams.get('token') }),
    });
    expect(again.status).toBe(400);
  }, 90_000);
});
