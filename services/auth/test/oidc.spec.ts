import { jest } from '@jest/globals';
import { subjects, type OidcStartReply, type Session } from '@vigil/proto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { TEST_PASSWORD, freePort, startAuthStack, userSession, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

type Account = { sub: string; email: string; email_verified: boolean; name: string };

/**
 * "Continue with Google" against a real OpenID provider (oidc-provider) on this
 * machine: discovery, PKCE, the browser round-trip with cookies, and the
 * server-side code exchange all happen for real. Only the user's clicks on the
 * provider's login and consent pages are scripted, by finishing the interaction.
 */
describe('Google sign-in (OIDC authorisation code + PKCE) against a local provider', () => {
  let stack: AuthStack;
  let server: Server;
  let issuer: string;
  let nextAccount: Account;
  const accounts = new Map<string, Account>();
  const seenAuthorizationParams: Record<string, string>[] = [];

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'vigil-web',
          client_secret: 'provider-test-secret',
          redirect_uris: ['http://web.test/auth/callback'],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      extraParams: ['access_type'],
      cookies: { keys: ['test-cookie-key'] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => {
        const account = accounts.get(sub);
        return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
      },
    });
    server = createServer(async (req, res) => {
      if (req.url?.startsWith('/auth?')) seenAuthorizationParams.push(Object.fromEntries(new URL(req.url, issuer).searchParams));
      if (req.url?.startsWith('/interaction/')) {
        // The user signs in as `nextAccount` and consents to what was asked.
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: nextAccount.sub, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: nextAccount.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
        return;
      }
      provider.callback()(req, res);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

    stack = await startAuthStack({ GOOGLE_ISSUER: issuer, GOOGLE_CLIENT_ID: 'vigil-web', GOOGLE_CLIENT_SECRET: 'provider-test-secret' });
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Plays the browser: follows the provider's redirects with its cookies until it is sent back to /auth/callback. */
  async function browserRoundTrip(authorizationUrl: string): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, ...value] = pair!.split('=');
        cookies.set(name!.trim(), value.join('='));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`provider answered ${res.status} without a redirect: ${await res.text()}`);
      const next = new URL(location, url);
      if (next.href.startsWith('http://web.test/auth/callback')) return next;
      url = next.href;
    }
    throw new Error('too many redirects');
  }

  async function signInWithGoogle(account: Account): Promise<Session> {
    accounts.set(account.sub, account);
    nextAccount = account;
    const { url } = await stack.call<OidcStartReply>(subjects.auth.oidcStart, { provider: 'google' });
    const callback = await browserRoundTrip(url);
    return stack.call<Session>(subjects.auth.oidcCallback, Object.fromEntries(callback.searchParams));
  }

  it('asks for offline access with consent, PKCE S256, state and nonce, and returns to /auth/callback', async () => {
    const { url } = await stack.call<OidcStartReply>(subjects.auth.oidcStart, { provider: 'google' });
    const params = new URL(url).searchParams;
    expect(url.startsWith(`${issuer}/auth?`)).toBe(true);
    expect(Object.fromEntries(params)).toMatchObject({
      client_id: 'vigil-web',
      response_type: 'code',
      redirect_uri: 'http://web.test/auth/callback',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toBeTruthy();
    expect(params.get('nonce')).toBeTruthy();
  });

  it('creates a user for a new Google account and signs them in', async () => {
    const session = await signInWithGoogle({ sub: 'google-sub-1', email: 'Grace@Example.com', email_verified: true, name: 'Grace Hopper' });
    expect(session.user).toMatchObject({ email: 'grace@example.com', full_name: 'Grace Hopper', role: 'user' });
    expect(session.user.email_confirmed_at).not.toBeNull();
    expect(session.user.identities).toEqual([expect.objectContaining({ provider: 'google', identity_id: 'google-sub-1' })]);
    expect(session.provider_token).toBeTruthy();
    expect(seenAuthorizationParams.at(-1)).toMatchObject({ access_type: 'offline', prompt: 'consent' });

    // Signing in again finds the same user by the linked identity.
    const again = await signInWithGoogle({ sub: 'google-sub-1', email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' });
    expect(again.user.id).toBe(session.user.id);
  });

  it('links Google to an existing user with the same verified email', async () => {
    const existing = await userSession(stack, 'linus@example.com');
    const session = await signInWithGoogle({ sub: 'google-sub-2', email: 'linus@example.com', email_verified: true, name: 'Linus' });
    expect(session.user.id).toBe(existing.user.id);
    expect(session.user.identities.map((i) => i.provider).sort()).toEqual(['email', 'google']);
    // The password still works: the account was confirmed, so nothing was dropped.
    await expect(stack.call(subjects.auth.token, { grant_type: 'password', email: 'linus@example.com', password: TEST_PASSWORD })).resolves.toBeTruthy();
  });

  it('links Google to the signed-in user, whatever its email, and refuses one already linked elsewhere', async () => {
    const me = await userSession(stack, 'ada.work@example.com');
    accounts.set('google-sub-4', { sub: 'google-sub-4', email: 'ada.personal@example.com', email_verified: true, name: 'Ada' });
    nextAccount = accounts.get('google-sub-4')!;
    const { url } = await stack.call<OidcStartReply>(subjects.auth.oidcStart, { provider: 'google', accessToken: me.access_token });
    const linked = await stack.call<Session>(subjects.auth.oidcCallback, Object.fromEntries((await browserRoundTrip(url)).searchParams));
    expect(linked.user.id).toBe(me.user.id);
    expect(linked.user.identities.map((i) => i.provider).sort()).toEqual(['email', 'google']);
    // From now on Google signs in as that user.
    expect((await signInWithGoogle(accounts.get('google-sub-4')!)).user.id).toBe(me.user.id);

    // Grace's Google account (google-sub-1) belongs to Grace: nobody else can take it over.
    nextAccount = accounts.get('google-sub-1')!;
    const other = await stack.call<OidcStartReply>(subjects.auth.oidcStart, { provider: 'google', accessToken: me.access_token });
    const taken = await stack.fail(subjects.auth.oidcCallback, Object.fromEntries((await browserRoundTrip(other.url)).searchParams));
    expect(taken.code).toBe('CONFLICT');
  });

  it('refuses an unverified email, a replayed callback and a forged code', async () => {
    accounts.set('google-sub-3', { sub: 'google-sub-3', email: 'unverified@example.com', email_verified: false, name: 'U' });
    nextAccount = accounts.get('google-sub-3')!;
    const unverified = await stack.call<OidcStartReply>(subjects.auth.oidcStart, { provider: 'google' });
    const callback = Object.fromEntries((await browserRoundTrip(unverified.url)).searchParams);
    const refused = await stack.fail(subjects.auth.oidcCallback, callback);
    expect(refused.code).toBe('OIDC_FAILED');
    expect(refused.message).toMatch(/no verified email/);
    // The state was used up by that attempt: replaying the same callback fails too.
    expect((await stack.fail(subjects.auth.oidcCallback, callback)).code).toBe('OIDC_FAILED');

    nextAccount = accounts.get('google-sub-1')!;
    const fresh = await stack.call<OidcStartReply>(subjects.auth.oidcStart, { provider: 'google' });
    const real = Object.fromEntries((await browserRoundTrip(fresh.url)).searchParams);
    expect((await stack.fail(subjects.auth.oidcCallback, { ...real, code: 'forged-code' })).code).toBe('OIDC_FAILED');
  });
});
