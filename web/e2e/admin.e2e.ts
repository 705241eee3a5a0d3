import type { Browser, Page, Request } from 'playwright-core';
import {
  ADMIN_URL,
  EXPECTED_SERVICES,
  launchChromium,
  openPage,
  saveScreenshot,
  waitForGreenStatus,
  expectPage,
  GATEWAY_URL,
  HEADINGS,
  passwordGrant,
} from './browser.js';
import { totpCode } from '@vigil/platform/testing';

describe('admin console', () => {
  let browser: Browser;
  let page: Page;
  let pageErrors: Error[];
  let apiRequests: Request[];

  beforeAll(async () => {
    browser = await launchChromium();
    ({ page, pageErrors } = await openPage(browser, ADMIN_URL));
    apiRequests = [];
    page.on('request', (request) => {
      if (/^\/(api|auth)\//.test(new URL(request.url()).pathname)) apiRequests.push(request);
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(() => {
    expect(pageErrors.map((error) => error.message)).toEqual([]);
  });

  it('opens on the sign-in screen', async () => {
    await page.waitForURL(`${ADMIN_URL}/login`);
    await expectPage(page, HEADINGS.adminSignIn);
    expect(await page.getByText('Admin dashboard access is restricted to Vigil team members only.').isVisible()).toBe(
      true,
    );
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password');
    expect(await page.getByRole('checkbox', { name: 'Remember me' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign In' }).isEnabled()).toBe(true);
  });

  it('turns the status widget green with all six services up', async () => {
    const status = await waitForGreenStatus(page);
    expect(status.headline).toBe('All systems operational');
    expect(Object.keys(status.rows).sort()).toEqual([...EXPECTED_SERVICES].sort());
    for (const service of EXPECTED_SERVICES) {
      expect([service, status.rows[service]]).toEqual([
        service,
        expect.stringMatching(new RegExp(`^${service} .*\\bUp$`, 'i')),
      ]);
    }
    await saveScreenshot(page, 'admin-sign-in');
  });

  it('validates the form before sending anything', async () => {
    await page.getByRole('button', { name: 'Sign In' }).click();
    expect(await page.getByText('Email is required.').isVisible()).toBe(true);
    expect(await page.getByText('Password is required.').isVisible()).toBe(true);
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Email').fill('ops@');
    await page.getByLabel('Password', { exact: true }).fill('correct horse');
    await page.getByRole('button', { name: 'Sign In' }).click();
    expect(await page.getByText('Please enter a valid email address.').isVisible()).toBe(true);
    expect(await page.getByText('Password is required.').count()).toBe(0);

    expect(apiRequests.map((request) => request.url())).toEqual([]);
  });

  it('shows and hides the password', async () => {
    const password = page.getByLabel('Password', { exact: true });
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    expect(await password.getAttribute('type')).toBe('password');
  });

  // The auth service's HTTP route is answered here by the test, so these check the
  // form's states and the request it sends, not the credentials.
  const SIGN_IN_ROUTE = '**/auth/v1/token';

  it('sends a valid form once, shows that it is signing in, then shows the refusal', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    await page.route(SIGN_IN_ROUTE, async (route) => {
      await answered;
      await route.fulfill({
        status: 401,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Invalid login credentials',
          status: 401,
          detail: 'Wrong email or password.',
          code: 'INVALID_CREDENTIALS',
        }),
      });
    });

    await page.getByLabel('Email').fill('  Ops@Vigil.example ');
    await page.getByRole('checkbox', { name: 'Remember me' }).click();
    await page.getByRole('button', { name: 'Sign In' }).click();

    const busy = page.getByRole('button', { name: 'Signing in…' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();

    const alert = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Wrong email or password.');
    expect(await page.getByRole('button', { name: 'Sign In' }).isEnabled()).toBe(true);

    expect(apiRequests.map((request) => `${request.method()} ${new URL(request.url()).pathname}`)).toEqual([
      'POST /auth/v1/token',
    ]);
    expect(apiRequests[0]?.postDataJSON()).toEqual({
      grant_type: 'password',
      email: 'ops@vigil.example',
      password: 'correct horse',
      remember_me: true,
    });
    await page.unroute(SIGN_IN_ROUTE);
  });

  it('shows an account that is not an admin Access Denied, with its email and Sign Out', async () => {
    await page.route(SIGN_IN_ROUTE, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify(sessionFor('ops@vigil.example', 'user')),
      }),
    );

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectPage(page, 'Access Denied');
    const denied = page.getByRole('alert').filter({ hasText: 'Access Denied' });
    expect(await denied.innerText()).toContain('Admin dashboard access is restricted to Vigil team members only.');
    expect(await denied.innerText()).toContain('ops@vigil.example');

    // The made-up session is refused by the gateway on sign-out; the console forgets it all the same.
    await denied.getByRole('button', { name: 'Sign Out' }).click();
    await expectPage(page, HEADINGS.adminSignIn);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    await page.unroute(SIGN_IN_ROUTE);
  });
});

describe('an admin without an authenticator', () => {
  const email = 'enrol-admin@vigil.dev';
  const password = 'enrol-admin-passphrase-42';
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    // An allow-listed address with the demo's spare invitation code: an admin with a password only.
    const code = process.env.DEMO_ADMIN_INVITATION;
    if (!code) throw new Error('DEMO_ADMIN_INVITATION is not set: run through infra/scripts/browser-tests.mjs');
    const signup = await fetch(`${GATEWAY_URL}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: 'Enrolling Admin',
        email,
        password,
        confirm_password: password,
        accepted_terms: true,
        invitation_code: code,
      }),
    });
    expect(signup.status).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('is refused every admin route with its password, then enrols an authenticator in the console and lands on the dashboard', async () => {
    const password1 = (await (await passwordGrant(email, password)).json()) as { access_token: string };
    const refused = await fetch(`${GATEWAY_URL}/api/client/admin/overview`, {
      headers: { authorization: `Bearer ${password1.access_token}` },
    });
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      403,
      'MFA_ENROLMENT_REQUIRED',
    ]);

    const { page, pageErrors } = await openPage(browser, `${ADMIN_URL}/login`);
    await expectPage(page, HEADINGS.adminSignIn);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectPage(page, HEADINGS.adminEnrol);
    const secret = await page.locator('code').innerText();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Authentication code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectPage(page, 'Save your recovery codes');
    expect(await page.getByRole('list', { name: 'Recovery codes' }).locator('li').count()).toBe(10);
    await page.getByRole('button', { name: 'Continue to the console' }).click();
    await expectPage(page, HEADINGS.adminDashboard);
    expect(pageErrors.map((error) => error.message)).toEqual([]);
  });
});

function sessionFor(email: string, role: 'user' | 'admin') {
  const now = new Date().toISOString();
  const userId = '7b0c3a52-1f44-4a8e-9c57-0d2f5e6a9b10';
  return {
    access_token: 'header.payload.signature',
    refresh_token: 'r1',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    expires_in: 3600,
    token_type: 'bearer',
    user: {
      id: userId,
      email,
      full_name: 'Ops',
      role,
      client_id: null,
      member_role: null,
      email_confirmed_at: now,
      created_at: now,
      updated_at: now,
      identities: [],
      factors: [],
    },
  };
}
