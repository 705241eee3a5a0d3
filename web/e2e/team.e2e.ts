import type { Browser, Page } from 'playwright-core';
import {
  createSubscribedUser,
  expectNoPageErrors,
  expectPage,
  launchChromium,
  linkFromMail,
  readMailbox,
  saveScreenshot,
  signInWithRefreshToken,
  uniqueEmail,
  watchPage,
  WEB_URL,
  type PageWatcher,
} from './browser.js';

const PASSWORD = 'team-e2e-passphrase';

/**
 * Issue #19, a team per client: the owner invites a colleague from Settings › Team, the colleague
 * opens the link from the mailbox, signs up and lands on the dashboard as an analyst.
 */
describe('inviting a colleague into the team', () => {
  let browser: Browser;
  let owner: Page;
  let ownerWatch: PageWatcher;
  const ownerEmail = uniqueEmail('team-owner');
  const colleagueEmail = uniqueEmail('team-analyst');

  beforeAll(async () => {
    browser = await launchChromium();
    const session = await createSubscribedUser(ownerEmail, PASSWORD, 'large');
    owner = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    ownerWatch = watchPage(owner);
    await signInWithRefreshToken(owner, session.refresh_token);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends an invitation from Settings, and the colleague signs up through the link into the dashboard', async () => {
    await owner.goto(`${WEB_URL}/dashboard/screening/settings`);
    await expectPage(owner, 'Account Settings');
    await owner.getByRole('table', { name: 'Team members' }).locator(`[data-member="${ownerEmail}"]`).waitFor();
    await owner.getByText('No pending invitations', { exact: true }).waitFor();

    // An invalid address is refused before anything is sent.
    await owner.getByPlaceholder('colleague@example.com').fill('not-an-address');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('Please enter a valid email address.', { exact: true }).waitFor();

    await owner.getByPlaceholder('colleague@example.com').fill(colleagueEmail);
    await owner.locator('#invite-role').selectOption('analyst');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    const pending = owner.locator(`[data-invitation="${colleagueEmail}"]`);
    await pending.waitFor();
    expect(await pending.innerText()).toContain('Analyst');

    // The colleague, in a browser of their own, opens the link from the mail.
    const mail = await readMailbox(colleagueEmail, /invited to join/i);
    expect(mail.text).toContain(`${ownerEmail} invited you to join`);
    const colleague = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const colleagueWatch = watchPage(colleague);
    await colleague.goto(linkFromMail(mail.text, '/invitation?token='));
    await expectPage(colleague, /^Join .+/);
    expect(await colleague.getByTestId('invitation-role').innerText()).toContain('Analyst');
    const form = colleague.getByRole('form', { name: 'Create your account' });
    expect(await form.getByLabel('Email').inputValue()).toBe(colleagueEmail);
    await form.getByLabel('Full name').fill('Ana Lyst');
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByLabel('Confirm password').fill(PASSWORD);
    await form.getByRole('checkbox', { name: /I agree/ }).click();
    await form.getByRole('button', { name: 'Create Account and Join' }).click();
    await colleague.waitForURL(`${WEB_URL}/dashboard/screening/api-screen`, { timeout: 20_000 });
    await expectPage(colleague, 'Entity Screening');

    // Settings shows the colleague the team, read-only.
    await colleague.goto(`${WEB_URL}/dashboard/screening/settings`);
    await expectPage(colleague, 'Account Settings');
    const members = colleague.getByRole('table', { name: 'Team members' });
    await members.locator(`[data-member="${colleagueEmail}"]`).waitFor();
    expect(await members.locator(`[data-member="${ownerEmail}"]`).innerText()).toContain('Owner');
    expect(await colleague.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    // Owner-only settings are shown, not offered: no profile save, no key regeneration.
    expect(await colleague.getByRole('button', { name: 'Save profile' }).count()).toBe(0);
    expect(await colleague.getByRole('button', { name: /Regenerate API key/ }).count()).toBe(0);
    expect(await colleague.getByText('Only owners of your team can change this.', { exact: true }).count()).toBe(2);
    expectNoPageErrors(colleagueWatch);

    // The owner sees the new member with their role, and the invitation gone.
    await owner.reload();
    await expectPage(owner, 'Account Settings');
    const row = owner.getByRole('table', { name: 'Team members' }).locator(`[data-member="${colleagueEmail}"]`);
    await row.waitFor();
    expect(await owner.getByLabel(`Role of ${colleagueEmail}`).inputValue()).toBe('analyst');
    await owner.getByText('No pending invitations', { exact: true }).waitFor();
    await saveScreenshot(owner, 'team-settings-owner');

    // A spent link says so.
    await colleague.goto(linkFromMail(mail.text, '/invitation?token='));
    await expectPage(colleague, 'Invitation not valid');
    expectNoPageErrors(ownerWatch);
  });
});
