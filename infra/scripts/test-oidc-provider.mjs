// A stand-in for Google during the browser tests: a real OpenID provider
// (oidc-provider, the library auth's own integration test uses) on loopback,
// with a sign-in page and a consent page the tests fill in like a person would.
//
// It runs as its own process: the test script waits on child processes with
// spawnSync, which would freeze a provider living in the same event loop.
//
//   node infra/scripts/test-oidc-provider.mjs <redirect_uri>   prints {"issuer":…} once listening
//   startTestOidcProvider({ redirectUri })                   the same, from another script
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

/** What auth is configured with: GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET for this provider. */
export const TEST_OIDC_CLIENT = { id: 'vigil-web-e2e', secret: 'vigil-web-e2e-provider-secret' };

/**
 * Starts the provider in a child process and answers its issuer and the env
 * auth needs to use it. `stop()` ends the child.
 * @param {{ redirectUri: string }} options
 */
export async function startTestOidcProvider({ redirectUri }) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), redirectUri], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const issuer = await new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk) => {
      buffered += chunk;
      const line = buffered.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      child.stdout.off('data', onData);
      // Keep draining, so a chatty provider never blocks on a full pipe.
      child.stdout.resume();
      resolve(JSON.parse(line).issuer);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the test OpenID provider exited (${code}) before listening`)));
  });
  return {
    issuer,
    env: {
      GOOGLE_ISSUER: issuer,
      GOOGLE_CLIENT_ID: TEST_OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: TEST_OIDC_CLIENT.secret,
      OIDC_REDIRECT_URI: redirectUri,
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.5rem 0}input,button{padding:.5rem;font-size:1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

async function readForm(req) {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return Object.fromEntries(new URLSearchParams(raw));
}

async function serve(redirectUri) {
  const { default: Provider } = await import('oidc-provider');
  /** Accounts appear when someone signs in; the subject is stable per address, as Google's is. */
  const accounts = new Map();
  const subjectOf = (email) => `test-google-${Buffer.from(email.toLowerCase()).toString('hex')}`;

  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_OIDC_CLIENT.id,
        client_secret: TEST_OIDC_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // Google's parameter for a refresh token; auth sends it.
    extraParams: ['access_type'],
    cookies: { keys: ['vigil-e2e-provider-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
  });
  const callback = provider.callback();

  server.on('request', async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', issuer);
      const match = /^\/interaction\/([\w-]+)(\/login|\/consent)?$/.exec(url.pathname);
      if (!match) return callback(req, res);
      const details = await provider.interactionDetails(req, res);
      const uid = escapeHtml(match[1]);
      if (req.method === 'GET' && details.prompt.name === 'login') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(
          page(
            'Sign in with Google',
            `<p>Test identity provider for Vigil's browser tests.</p>
<form method="post" action="/interaction/${uid}/login">
<label for="email">Email</label><input id="email" name="email" type="email" required>
<label for="name">Name</label><input id="name" name="name" required>
<button type="submit">Next</button></form>`,
          ),
        );
      }
      if (req.method === 'GET') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        return res.end(
          page(
            'Vigil wants to access your Google Account',
            `<p>Scopes: ${escapeHtml(details.params.scope)}</p>
<form method="post" action="/interaction/${uid}/consent"><button type="submit">Allow</button></form>`,
          ),
        );
      }
      if (match[2] === '/login') {
        const form = await readForm(req);
        const email = String(form.email ?? '').trim();
        if (!email) {
          res.statusCode = 400;
          return res.end('email required');
        }
        const sub = subjectOf(email);
        accounts.set(sub, { email, email_verified: true, name: String(form.name ?? '').trim() || email });
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId: sub } },
          { mergeWithLastSubmission: false },
        );
      }
      const grant = new provider.Grant({
        accountId: details.session.accountId,
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (error) {
      res.statusCode = 500;
      res.end(`test provider: ${error.message}`);
    }
  });

  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
  const close = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const redirectUri = process.argv[2];
  if (!redirectUri) {
    process.stderr.write('usage: node infra/scripts/test-oidc-provider.mjs <redirect_uri>\n');
    process.exit(2);
  }
  await serve(redirectUri);
}
